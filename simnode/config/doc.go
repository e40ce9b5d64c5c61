// Package config is simnode's own configuration: what one simnode process
// serves (Config) and the node pools it simulates (Pool), read from the
// simnode.yaml that the harness writes. It is simnode's internal form, as
// kind keeps an internal config apart from its versioned one: the harness
// converts the user's versioned wink.yaml (harness/config/v1alpha1) into it,
// so simnode links nothing of the harness, and the harness links none of
// simnode's runtime to write it or to name the nodes (NodeNames).
package config
