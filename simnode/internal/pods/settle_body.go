package pods

import (
	"context"

	"wink.dev/wink/simnode/shell/process"
)

// HTTPBody sends a request with a body once the process has settled
// (process.BodySender; settledNet passes it through like HTTP).
func (s settledNet) HTTPBody(ctx context.Context, method, url string, body []byte, insecure bool) (*process.HTTPResponse, error) {
	if err := s.settle(); err != nil {
		return nil, err
	}
	return process.SendHTTP(ctx, s.Network, method, url, body, insecure)
}

var _ process.BodySender = settledNet{}
