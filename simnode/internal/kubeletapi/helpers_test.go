package kubeletapi

import (
	"io"
	"log/slog"
)

func slogDiscard() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
