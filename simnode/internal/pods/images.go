package pods

import (
	"errors"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/rules"
)

// The image manager (image_manager.go EnsureImageExists): pulls with
// back-off and their errors (B4).

func (m *machine) imageFor(c *container) (ref, id string) {
	ref, id = imageRefs(c.image)
	if c.img.Ref != "" {
		ref = c.img.Ref
	}
	if c.img.ID != "" {
		id = c.img.ID
	}
	return ref, id
}

// ensureImage is image_manager.go EnsureImageExists. It reports whether
// the image is there; otherwise c waits (pulling, or an error state).
func (m *machine) ensureImage(rec *record, c *container, now time.Time) bool {
	if c.pulled {
		return true
	}
	spec := m.spec(rec, c)
	ref, _ := imageRefs(c.image)
	if !c.pullUntil.IsZero() {
		if now.Before(c.pullUntil) {
			return false
		}
		d := c.pullUntil.Sub(c.pullStart).Truncate(time.Millisecond).String()
		c.pullUntil = time.Time{}
		m.event(rec.pod, c, rules.EventPulled, rules.EventData{Container: c.name, Image: c.image, PullDuration: d, TotalDuration: d, ImageSize: c.img.Size})
		m.recordImage(ref, c.img)
		c.pulled = true
		return true
	}
	policy := spec.ImagePullPolicy
	present := m.images[ref]
	if policy == corev1.PullNever && !present {
		m.event(rec.pod, c, rules.EventNeverPull, rules.EventData{Container: c.name, Image: c.image})
		msg := m.renderEvent(rules.EventNeverPull, rules.EventData{Container: c.name, Image: c.image})
		m.event(rec.pod, c, rules.EventError, rules.EventData{Container: c.name, Image: c.image, Message: "ErrImageNeverPull"})
		m.waiting(c, "ErrImageNeverPull", msg)
		m.retryLater(rec, c, m.rules.Runtime.SyncRetry.Duration, now)
		return false
	}
	if policy != corev1.PullAlways && present {
		c.img = m.imageMeta(rec, c)
		m.event(rec.pod, c, rules.EventAlreadyPresent, rules.EventData{Container: c.name, Image: c.image})
		c.pulled = true
		return true
	}
	r := m.rules.Runtime.ImagePullBackOff
	if c.pullBackoff.inBackOffSinceUpdate(now, r) {
		m.event(rec.pod, c, rules.EventPullBackOff, rules.EventData{Container: c.name, Image: c.image})
		m.event(rec.pod, c, rules.EventError, rules.EventData{Container: c.name, Image: c.image, Message: "ImagePullBackOff"})
		msg := ""
		if w := c.state.Waiting; w != nil {
			msg = w.Message
			if w.Reason == "ImagePullBackOff" {
				msg = c.lastPullError()
			}
		}
		m.waiting(c, "ImagePullBackOff", m.rules.Runtime.Message("pullBackoffMessage", rules.MessageData{Image: c.image, Reason: c.pullErrReason(), Message: msg}))
		c.notBefore = c.pullBackoff.last.Add(c.pullBackoff.d)
		m.fx.after(rec, c.notBefore.Sub(now), nil)
		return false
	}
	m.event(rec.pod, c, rules.EventPulling, rules.EventData{Container: c.name, Image: c.image})
	img := Image{}
	if m.rt.images != nil {
		var err error
		img, err = m.rt.images.Pull(c.image, m.host(rec), rec.pod, c.name)
		if err != nil {
			reason, msg := "ErrImagePull", err.Error()
			var pe *PullError
			if errors.As(err, &pe) {
				msg = pe.Message
				if pe.Reason != "" {
					reason = pe.Reason
				}
			}
			m.event(rec.pod, c, rules.EventFailedPull, rules.EventData{Container: c.name, Image: c.image, Message: msg})
			c.pullBackoff.next(now, now, r)
			m.event(rec.pod, c, rules.EventError, rules.EventData{Container: c.name, Image: c.image, Message: reason})
			m.waiting(c, reason, msg)
			m.retryLater(rec, c, m.rules.Runtime.PullFailureResync.Duration, now)
			return false
		}
	}
	if img.Fallback != "" {
		m.event(rec.pod, c, rules.EventImageFallback, rules.EventData{Container: c.name, Image: c.image, Message: img.Fallback})
	}
	if img.Size == 0 {
		img.Size = imageSize(ref, m.node.OS)
	}
	c.img = img
	// Without a bandwidth the pull takes no simulated time (the start
	// delay covers it) and reports pullDuration.
	c.pullStart = now
	if m.pullBandwidth <= 0 {
		c.pullStart = now.Add(-m.pullDuration)
		c.pullUntil = now
		return m.ensureImage(rec, c, now)
	}
	d := time.Duration(float64(img.Size) / float64(m.pullBandwidth) * float64(time.Second))
	c.pullUntil = now.Add(d)
	if d <= 0 {
		return m.ensureImage(rec, c, now)
	}
	m.fx.after(rec, d, nil)
	return false
}

func (c *container) lastPullError() string {
	if w := c.state.Waiting; w != nil {
		if i := strings.Index(w.Message, ": "); i >= 0 && strings.HasPrefix(w.Message, "Back-off pulling image") {
			rest := w.Message[i+2:]
			if j := strings.Index(rest, ": "); j >= 0 {
				return rest[j+2:]
			}
		}
		return w.Message
	}
	return ""
}

func (c *container) pullErrReason() string {
	if w := c.state.Waiting; w != nil && w.Reason != "ImagePullBackOff" {
		return w.Reason
	}
	return "ErrImagePull"
}
