// Package exampleenv is what Sift's examples share: choosing between a real
// model endpoint and the example's offline script ([Models]), finding the
// example data files ([DataFile]), a place for session workspaces
// ([SessionsRoot]), and printing a run's events one compact line at a time
// ([Print]).
package exampleenv
