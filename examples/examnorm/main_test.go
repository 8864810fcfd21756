package main

import (
	"testing"

	"github.com/sift-agent/sift/examples/internal/exampleenv"
	"github.com/sift-agent/sift/examples/internal/exampletest"
)

func TestRunNormalisesQuiz(t *testing.T) {
	exampletest.CheckTask(t, run, "out/questions.csv", exampleenv.ScriptedLabel, []exampletest.TaskCase{
		{
			Name: "example data",
			Want: [][]string{
				{"number", "question", "option_a", "option_b", "option_c", "option_d", "answer"},
				{"1", "What is the mean of 2, 4 and 9?", "4", "5", "6", "9", "B"},
				{"2", "Which measure is robust to outliers?", "mean", "median", "range", "variance", "B"},
				{"3", "The standard deviation of a constant series is", "0", "1", "undefined", "the constant", "A"},
				{"4", "A sample's size is 25 and its variance is 16. What is the standard error of the mean?", "0.8", "3.2", "4", "0.64", "A"},
			},
		},
		{
			// Another quiz mixing the formats differently: the script's
			// Python must really parse the file.
			Name:      "other file",
			InputName: "quiz.txt",
			Input:     "Q1) Two plus two?\n(a) 3 (b) 4 (c) 5 (d) 22\nAnswer - b\n\n2. Capital of France?\nA. Rome\nB. Madrid\nC. Paris\nD. Berlin\nanswer: C\n",
			Want: [][]string{
				{"number", "question", "option_a", "option_b", "option_c", "option_d", "answer"},
				{"1", "Two plus two?", "3", "4", "5", "22", "B"},
				{"2", "Capital of France?", "Rome", "Madrid", "Paris", "Berlin", "C"},
			},
		},
	})
}

func TestRunRejectsBadArguments(t *testing.T) { exampletest.CheckBadArguments(t, run) }
