package main

import (
	"testing"

	"github.com/sift-agent/sift/examples/internal/exampleenv"
	"github.com/sift-agent/sift/examples/internal/exampletest"
)

func TestRunCountsTitles(t *testing.T) {
	exampletest.CheckTask(t, run, "out/book_titles.csv", exampleenv.ScriptedLabel, []exampletest.TaskCase{
		{
			// The true counts of examples/data/books.txt (三体 is mentioned
			// three times: months 1, 2 and 5); ties keep the order of first
			// mention.
			Name: "example data",
			Want: [][]string{
				{"title", "count"},
				{"红楼梦", "3"},
				{"三体", "3"},
				{"活着", "3"},
				{"黑暗森林", "2"},
				{"百年孤独", "2"},
				{"围城", "2"},
			},
		},
		{
			// Another file with other titles: the script's Python must
			// really parse the file.
			Name:      "other file",
			InputName: "log.txt",
			Input:     "《甲》《乙》《甲》\n读了《丙》和《乙》，又读《甲》。\n",
			Want:      [][]string{{"title", "count"}, {"甲", "3"}, {"乙", "2"}, {"丙", "1"}},
		},
	})
}

func TestRunRejectsBadArguments(t *testing.T) { exampletest.CheckBadArguments(t, run) }
