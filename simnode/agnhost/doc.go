// Package agnhost holds the agnhost subcommands whose clients are outside
// the simulation and so need a real socket: `agnhost webhook`, the
// admission webhook server upstream's AdmissionWebhook specs deploy in a
// pod and register with the apiserver (test/e2e/apimachinery/webhook.go,
// test/images/agnhost/webhook, v1.35.4). The apiserver reaches it through
// its egress proxy (simnode/egress) at the pod's Service, so the server is
// a real HTTPS server with the pod's own certificates. `agnhost
// test-webserver` (testwebserver.go) is Go's file server over the
// container's files, answered without a socket (pods/proxy reaches it
// through the network model).
//
// The behaviour is the image's (row E: the programs of the e2e images run
// as on a real node, kubelet versions all): the same paths, decisions,
// patches and messages, written from the upstream sources' behaviour.
package agnhost
