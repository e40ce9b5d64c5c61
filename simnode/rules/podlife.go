package rules

import "fmt"

// TerminationMessage bounds what the kubelet reads into a terminated
// container's message (runtime.yaml terminationMessage).
type TerminationMessage struct {
	Cites        []string `json:"cites"`
	MaxFileBytes int      `json:"maxFileBytes"`
	MaxLogBytes  int      `json:"maxLogBytes"`
	MaxLogLines  int      `json:"maxLogLines"`
}

// ActiveDeadline is the status of a pod past its activeDeadlineSeconds
// (runtime.yaml activeDeadline).
type ActiveDeadline struct {
	Cites   []string `json:"cites"`
	Reason  string   `json:"reason"`
	Message string   `json:"message"`
}

func (t TerminationMessage) check() error {
	if err := checkCites("terminationMessage", t.Cites); err != nil {
		return err
	}
	if t.MaxFileBytes <= 0 || t.MaxLogBytes <= 0 || t.MaxLogLines <= 0 {
		return fmt.Errorf("terminationMessage: maxFileBytes, maxLogBytes and maxLogLines must be > 0")
	}
	return nil
}

func (a ActiveDeadline) check() error {
	if err := checkCites("activeDeadline", a.Cites); err != nil {
		return err
	}
	if a.Reason == "" || a.Message == "" {
		return fmt.Errorf("activeDeadline: reason and message are required")
	}
	return nil
}
