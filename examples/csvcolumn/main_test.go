package main

import (
	"testing"

	"github.com/sift-agent/sift/examples/internal/exampleenv"
	"github.com/sift-agent/sift/examples/internal/exampletest"
)

func TestRunWritesEmails(t *testing.T) {
	exampletest.CheckTask(t, run, "out/emails.csv", exampleenv.ScriptedLabel, []exampletest.TaskCase{
		{
			Name: "example data",
			Want: [][]string{
				{"email"},
				{"ada@example.org"},
				{"alan@example.org"},
				{"grace@example.org"},
				{"katherine@example.org"},
				{"linus@example.org"},
				{"margaret@example.org"},
				{"tim@example.org"},
				{"barbara@example.org"},
			},
		},
		{
			// Another file name, another column order, a capitalised and
			// padded header, a padded address and a missing one: the
			// script's Python must really read the file.
			Name:      "other file",
			InputName: "contacts.csv",
			Input:     "id, Email ,name\n1,  zoe@example.net ,Zoe\n2,,Yann\n3,xi@example.net,Xi\n",
			Want:      [][]string{{"email"}, {"zoe@example.net"}, {"xi@example.net"}},
		},
	})
}

func TestRunRejectsBadArguments(t *testing.T) { exampletest.CheckBadArguments(t, run) }
