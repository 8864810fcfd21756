package server

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/sift-agent/sift/agents"
)

// Webhook is where a scheduled refresh's result is sent when its session
// ends: a POST of a JSON WebhookResult, signed with Secret.
type Webhook struct {
	// URL receives the POST.
	URL string
	// Secret signs each POST: the X-Sift-Signature header is
	// "sha256=" and the hex HMAC-SHA256, keyed by Secret, of the
	// X-Sift-Timestamp header's value, a '.', and the body. The receiver
	// computes the same and compares in constant time, and refuses a
	// timestamp too old (a replayed POST). Required with URL.
	Secret string
}

// WebhookResult is the body of a webhook POST: which firing of which
// schedule ended, and how.
type WebhookResult struct {
	Event    string `json:"event"` // "schedule.finished"
	Schedule string `json:"schedule"`
	Firing   string `json:"firing"` // the firing's time, RFC 3339
	// Session is the refreshed session (failed when the firing could not
	// run); Parent the schedule's session.
	Session string `json:"session"`
	Parent  string `json:"parent"`
	Status  string `json:"status"`
	Answer  string `json:"answer,omitempty"`
	Error   string `json:"error,omitempty"`
}

// Webhook headers.
const (
	webhookSignatureHeader = "X-Sift-Signature"
	webhookTimestampHeader = "X-Sift-Timestamp"
)

// webhookTries is how many times a POST is tried; webhookWait the first
// wait between tries, doubled each time.
const (
	webhookTries = 4
	webhookWait  = 500 * time.Millisecond
)

// SignWebhook is the X-Sift-Signature value of body sent at timestamp
// (Unix seconds, as in X-Sift-Timestamp) with secret.
func SignWebhook(secret, timestamp string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(timestamp))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}

// notifyWhenDone waits for session id, a firing of sc at tick, to end
// (in this process or on a worker: its record in the shared store says)
// and sends its result to the webhook. It gives up when the server shuts
// down first; the session itself is not affected.
func (s *Server) notifyWhenDone(sc Schedule, tick time.Time, id string) {
	if s.cfg.Webhook.URL == "" {
		return
	}
	go func() {
		for {
			m, err := s.store.Sessions.Get(s.runCtx, id)
			if err == nil && m.Status.Finished() {
				res := WebhookResult{Event: "schedule.finished", Schedule: sc.Name, Firing: tick.UTC().Format(time.RFC3339),
					Session: id, Parent: sc.Session, Status: string(m.Status), Error: m.Error}
				if fp, err := agents.SessionPlan(s.workspace(id).Root); err == nil && fp.Result != nil {
					res.Answer = fp.Result.Answer
				}
				s.sendWebhook(s.runCtx, res)
				return
			}
			select {
			case <-s.runCtx.Done():
				return
			case <-time.After(time.Second):
			}
		}
	}()
}

// sendWebhook POSTs res, signed, trying again on a network error or a 5xx
// answer; the outcome is logged and counted.
func (s *Server) sendWebhook(ctx context.Context, res WebhookResult) {
	body, err := json.Marshal(res)
	if err != nil {
		return
	}
	wait := webhookWait
	for try := 1; ; try++ {
		err = s.postWebhook(ctx, body)
		if err == nil {
			s.metrics.webhookSent.Inc()
			return
		}
		if try == webhookTries || ctx.Err() != nil {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(wait):
		}
		wait *= 2
	}
	s.metrics.webhookFailures.Inc()
	s.log.Warn("the schedule's webhook could not be sent", "schedule", res.Schedule, "session", res.Session, "url", s.cfg.Webhook.URL, "err", err)
}

func (s *Server) postWebhook(ctx context.Context, body []byte) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.cfg.Webhook.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "sift-webhook")
	req.Header.Set(webhookTimestampHeader, ts)
	req.Header.Set(webhookSignatureHeader, SignWebhook(s.cfg.Webhook.Secret, ts, body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("the webhook answered %s", resp.Status)
	}
	return nil
}

// checkWebhook refuses a webhook without a secret, or with a URL that is
// not http(s).
func checkWebhook(w Webhook) error {
	if w.URL == "" {
		return nil
	}
	req, err := http.NewRequest(http.MethodPost, w.URL, nil)
	if err != nil || (req.URL.Scheme != "http" && req.URL.Scheme != "https") || req.URL.Host == "" {
		return fmt.Errorf("webhook %q: give an http or https URL", w.URL)
	}
	if w.Secret == "" {
		return fmt.Errorf("webhook %s: give the secret that signs its POSTs (SIFT_WEBHOOK_SECRET)", w.URL)
	}
	return nil
}
