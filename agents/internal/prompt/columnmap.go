package prompt

import (
	"fmt"
	"strings"

	"github.com/cloudwego/eino/schema"
)

// Column mapping: a refresh whose new data renamed columns so that name
// and type similarity is not sure (refresh.Mapping.Unsure) asks the model
// how the old columns are found in the new ones. Its reply is a JSON
// object, checked before it is shown for approval (refresh.WithModel).

// ColumnMappingText is the system message of a column-mapping request.
const ColumnMappingText = `You map the columns of an old table to the columns of a new version of the same table, for Sift, a data-analysis agent that runs an earlier analysis again on the new data.

Reply with one JSON object and nothing else: each old column's name, as given, to the name of the new column that holds the same data, exactly as the new table spells it, or to null when no new column does.
- Map only to a column of the new table. Never invent a name.
- A new column stands for one old column at most.
- Map a column only when its name and type make the match clear; when unsure, give null: the person is then asked for a file with that column, which is better than a wrong number.`

// ColumnMapping is the request to map the old columns (each "name
// (type)") of table to the new ones; unsure are the old columns that
// name and type similarity could not place with certainty.
func ColumnMapping(table string, old, new, unsure []string) []*schema.Message {
	var b strings.Builder
	Section(&b, "Table", table)
	Section(&b, "Old columns, in order", strings.Join(old, "\n"))
	Section(&b, "New columns, in order", strings.Join(new, "\n"))
	Section(&b, "Old columns whose place in the new table is not clear", strings.Join(unsure, "\n"))
	fmt.Fprintf(&b, "Reply with the JSON object for all %d old columns.", len(old))
	return []*schema.Message{schema.SystemMessage(ColumnMappingText), schema.UserMessage(strings.TrimSpace(b.String()))}
}
