package process

import "context"

// BodySender is a Network whose HTTP requests carry a body (POST data:
// wget --post-data, curl -d), for servers that read it (agnhost nettest's
// /write). simnode/network implements it.
type BodySender interface {
	HTTPBody(ctx context.Context, method, url string, body []byte, insecure bool) (*HTTPResponse, error)
}

// SendHTTP is n.HTTP with body: through BodySender when n has it; a
// network without it sends the request without its body.
func SendHTTP(ctx context.Context, n Network, method, url string, body []byte, insecure bool) (*HTTPResponse, error) {
	if b, ok := n.(BodySender); ok && body != nil {
		return b.HTTPBody(ctx, method, url, body, insecure)
	}
	return n.HTTP(ctx, method, url, insecure)
}
