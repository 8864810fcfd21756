package preview

import "testing"

func TestInferColumnType(t *testing.T) {
	tests := []struct {
		name   string
		values []string
		want   string
	}{
		{"ints", []string{"1", "-2", "+3", "1,234,567"}, ColumnInt},
		{"ints with missing markers", []string{"1", "", "NA", "null", "N/A", "2"}, ColumnInt},
		{"floats", []string{"1.5", "-0.25", "3e8", "1,234.5"}, ColumnFloat},
		{"ints and floats", []string{"1", "2.5"}, ColumnFloat},
		{"percentages", []string{"12.5%", "3%"}, ColumnFloat},
		{"bools", []string{"true", "False", "YES", "no"}, ColumnBool},
		{"ISO dates", []string{"2024-01-31", "2023-12-01"}, ColumnDate},
		{"slashed year-first dates", []string{"2024/01/31", "2024/1/5"}, ColumnDate},
		{"day-first dates", []string{"31/01/2024", "15/12/2023"}, ColumnDate},
		{"month-first dates", []string{"01/31/2024", "12/15/2023"}, ColumnDate},
		{"spreadsheet short dates", []string{"01-31-24", "12-15-23"}, ColumnDate},
		{"named month dates", []string{"31-Jan-2024", "Jan 5, 2024"}, ColumnDate},
		{"Chinese dates", []string{"2024年1月31日"}, ColumnDate},
		{"ISO timestamps", []string{"2024-01-31T10:20:30Z", "2024-01-31T10:20:30.123+08:00"}, ColumnDatetime},
		{"space timestamps", []string{"2024-01-31 10:20:30", "2024-01-31 10:20"}, ColumnDatetime},
		{"dates and timestamps", []string{"2024-01-31", "2024-01-31 10:20:30"}, ColumnDatetime},
		{"text", []string{"North", "South"}, ColumnText},
		{"numbers and words", []string{"1", "two"}, ColumnText},
		{"bad grouping is text", []string{"12,34"}, ColumnText},
		{"Inf and NaN words are not floats", []string{"Inf", "infinity"}, ColumnText},
		{"hex is not a float", []string{"0x1p-2"}, ColumnText},
		{"invalid date is text", []string{"2024-13-45"}, ColumnText},
		{"all missing", []string{"", " ", "NaN", "none"}, ColumnEmpty},
		{"no values", nil, ColumnEmpty},
		{"bool and int is text", []string{"true", "1"}, ColumnText},
		{"date and int is text", []string{"2024-01-31", "5"}, ColumnText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := InferColumnType(tt.values); got != tt.want {
				t.Errorf("InferColumnType(%q) = %q, want %q", tt.values, got, tt.want)
			}
		})
	}
}
