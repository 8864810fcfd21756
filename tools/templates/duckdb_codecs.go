package templates

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
	"golang.org/x/text/transform"
)

// The text encodings the DuckDB engine transcodes to UTF-8 in Go
// (prepareInput) before DuckDB reads a file: Params.Encoding is a
// Python codec, as pandas is given it, so a name is looked up as Python
// looks it up (pyCodecKey, then Python's aliases), and every byte of a
// single-byte codec decodes as Python's codec decodes it, or fails where
// it fails (TestSingleByteCodecsDecodeAsPython).

// utf8Codec reports whether DuckDB reads a file in encoding as it is.
func utf8Codec(enc string) bool {
	switch strings.ToLower(enc) {
	case "", "utf-8", "utf-8-sig", "utf8", "ascii":
		return true
	}
	return false
}

// duckCodec is the encoding of the Python codec enc, when the engine
// transcodes it.
func duckCodec(enc string) (encoding.Encoding, bool) {
	e, ok := duckCodecs[pyCodecKey(enc)]
	return e, ok
}

// pyCodecKey is Python's normalisation of a codec's name (codecs.lookup,
// encodings.normalize_encoding): lower case, each run of characters other
// than letters, digits and dots one underscore, none at either end.
func pyCodecKey(name string) string {
	var b strings.Builder
	gap := false
	for _, r := range strings.ToLower(name) {
		if r == '.' || ('a' <= r && r <= 'z') || ('0' <= r && r <= '9') {
			if gap && b.Len() > 0 {
				b.WriteByte('_')
			}
			gap = false
			b.WriteRune(r)
			continue
		}
		gap = true
	}
	return b.String()
}

// duckCodecs are the codecs the engine transcodes, by pyCodecKey of
// every name Python knows them by.
var duckCodecs = codecTable(map[string]struct {
	enc     encoding.Encoding
	aliases string
}{
	"gb18030":   {simplifiedchinese.GB18030, "gb18030_2000"},
	"gbk":       {simplifiedchinese.GBK, "936 cp936 ms936"},
	"gb2312":    {simplifiedchinese.GBK, "chinese csiso58gb231280 euc_cn euccn eucgb2312_cn gb2312_1980 gb2312_80 iso_ir_58"},
	"big5":      {traditionalchinese.Big5, "big5_tw csbig5"},
	"cp950":     {traditionalchinese.Big5, "950 ms950"},
	"shift_jis": {japanese.ShiftJIS, "csshiftjis s_jis shiftjis sjis"},
	"cp932":     {japanese.ShiftJIS, "932 ms932 ms_kanji mskanji"},
	"euc_jp":    {japanese.EUCJP, "eucjp u_jis ujis"},
	"euc_kr":    {korean.EUCKR, "euckr korean ks_c_5601 ks_c_5601_1987 ks_x_1001 ksc5601 ksx1001"},
	"cp949":     {korean.EUCKR, "949 ms949 uhc"},
	"utf_16":    {unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), "u16 utf16"},
	"utf_16_le": {unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), "unicodelittleunmarked utf_16le"},
	"utf_16_be": {unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), "unicodebigunmarked utf_16be"},
	"utf_32":    {utf32.UTF32(utf32.LittleEndian, utf32.UseBOM), "u32 utf32"},
	"utf_32_le": {utf32.UTF32(utf32.LittleEndian, utf32.IgnoreBOM), "utf_32le"},
	"utf_32_be": {utf32.UTF32(utf32.BigEndian, utf32.IgnoreBOM), "utf_32be"},

	"cp1250": {pyBytes(charmap.Windows1250), "1250 windows_1250"},
	"cp1251": {pyBytes(charmap.Windows1251), "1251 windows_1251"},
	"cp1252": {pyBytes(charmap.Windows1252), "1252 windows_1252"},
	"cp1253": {pyBytes(charmap.Windows1253), "1253 windows_1253"},
	"cp1254": {pyBytes(charmap.Windows1254), "1254 windows_1254"},
	// Python leaves 0xCA undefined.
	"cp1255": {pyBytes(charmap.Windows1255, 0xCA, utf8.RuneError), "1255 windows_1255"},
	"cp1256": {pyBytes(charmap.Windows1256), "1256 windows_1256"},
	"cp1257": {pyBytes(charmap.Windows1257), "1257 windows_1257"},
	"cp1258": {pyBytes(charmap.Windows1258), "1258 windows_1258"},
	"cp874":  {pyBytes(charmap.Windows874), ""},
	"cp437":  {pyBytes(charmap.CodePage437), "437 cspc8codepage437 ibm437"},
	"cp850":  {pyBytes(charmap.CodePage850), "850 cspc850multilingual ibm850"},
	"cp852":  {pyBytes(charmap.CodePage852), "852 cspcp852 ibm852"},
	"cp855":  {pyBytes(charmap.CodePage855), "855 csibm855 ibm855"},
	"cp858":  {pyBytes(charmap.CodePage858), "858 csibm858 ibm858"},
	"cp860":  {pyBytes(charmap.CodePage860), "860 csibm860 ibm860"},
	"cp862":  {pyBytes(charmap.CodePage862), "862 cspc862latinhebrew ibm862"},
	"cp863":  {pyBytes(charmap.CodePage863), "863 csibm863 ibm863"},
	"cp865":  {pyBytes(charmap.CodePage865), "865 csibm865 ibm865"},
	"cp866":  {pyBytes(charmap.CodePage866), "866 csibm866 ibm866"},

	"latin_1":    {pyBytes(charmap.ISO8859_1), "8859 cp819 csisolatin1 ibm819 iso8859 iso8859_1 iso_8859_1 iso_8859_1_1987 iso_ir_100 l1 latin latin1"},
	"iso8859_2":  {pyISO(charmap.ISO8859_2), "csisolatin2 iso_8859_2 iso_8859_2_1987 iso_ir_101 l2 latin2"},
	"iso8859_3":  {pyISO(charmap.ISO8859_3), "csisolatin3 iso_8859_3 iso_8859_3_1988 iso_ir_109 l3 latin3"},
	"iso8859_4":  {pyISO(charmap.ISO8859_4), "csisolatin4 iso_8859_4 iso_8859_4_1988 iso_ir_110 l4 latin4"},
	"iso8859_5":  {pyISO(charmap.ISO8859_5), "csisolatincyrillic cyrillic iso_8859_5 iso_8859_5_1988 iso_ir_144"},
	"iso8859_6":  {pyISO(charmap.ISO8859_6), "arabic asmo_708 csisolatinarabic ecma_114 iso_8859_6 iso_8859_6_1987 iso_ir_127"},
	"iso8859_7":  {pyISO(charmap.ISO8859_7), "csisolatingreek ecma_118 elot_928 greek greek8 iso_8859_7 iso_8859_7_1987 iso_ir_126"},
	"iso8859_8":  {pyISO(charmap.ISO8859_8), "csisolatinhebrew hebrew iso_8859_8 iso_8859_8_1988 iso_ir_138"},
	"iso8859_9":  {pyBytes(charmap.ISO8859_9), "csisolatin5 iso_8859_9 iso_8859_9_1989 iso_ir_148 l5 latin5"},
	"iso8859_10": {pyISO(charmap.ISO8859_10), "csisolatin6 iso_8859_10 iso_8859_10_1992 iso_ir_157 l6 latin6"},
	"iso8859_13": {pyISO(charmap.ISO8859_13), "iso_8859_13 l7 latin7"},
	"iso8859_14": {pyISO(charmap.ISO8859_14), "iso_8859_14 iso_8859_14_1998 iso_celtic iso_ir_199 l8 latin8"},
	"iso8859_15": {pyISO(charmap.ISO8859_15), "iso_8859_15 l9 latin9"},
	"iso8859_16": {pyISO(charmap.ISO8859_16), "iso_8859_16 iso_8859_16_2001 iso_ir_226 l10 latin10"},
	"koi8_r":     {pyBytes(charmap.KOI8R), "cskoi8r"},
	// Python's koi8_u (RFC 2319) has box drawings where x/text's has
	// Belarusian letters.
	"koi8_u":       {pyBytes(charmap.KOI8U, 0xAE, '╝', 0xBE, '╬'), ""},
	"mac_roman":    {pyBytes(charmap.Macintosh), "macintosh macroman"},
	"mac_cyrillic": {pyBytes(charmap.MacintoshCyrillic), "maccyrillic"},
})

// codecTable indexes codecs by their names and aliases.
func codecTable(codecs map[string]struct {
	enc     encoding.Encoding
	aliases string
}) map[string]encoding.Encoding {
	out := map[string]encoding.Encoding{}
	for name, c := range codecs {
		out[name] = c.enc
		for _, a := range strings.Fields(c.aliases) {
			out[a] = c.enc
		}
	}
	return out
}

// pyBytes is a single-byte charmap as Python's codec of it decodes:
// x/text's, with the bytes of fix (byte, rune, byte, rune…) decoded
// otherwise; utf8.RuneError is a byte the codec does not decode.
func pyBytes(cm *charmap.Charmap, fix ...rune) encoding.Encoding {
	t := &byteTable{enc: cm}
	for b := range 256 {
		t.runes[b] = cm.DecodeByte(byte(b))
	}
	for i := 0; i+1 < len(fix); i += 2 {
		t.runes[fix[i]] = fix[i+1]
	}
	return t
}

// pyISO is an ISO 8859 charmap as Python decodes it: its bytes 0x80–0x9F
// are the C1 controls, which x/text leaves undefined.
func pyISO(cm *charmap.Charmap) encoding.Encoding {
	var fix []rune
	for b := rune(0x80); b <= 0x9F; b++ {
		fix = append(fix, b, b)
	}
	return pyBytes(cm, fix...)
}

// byteTable decodes one rune per byte; its encoder is the charmap's (the
// engine only decodes).
type byteTable struct {
	runes [256]rune
	enc   *charmap.Charmap
}

func (t *byteTable) NewDecoder() *encoding.Decoder {
	return &encoding.Decoder{Transformer: byteDecoder{t}}
}

func (t *byteTable) NewEncoder() *encoding.Encoder { return t.enc.NewEncoder() }

// byteDecoder is byteTable's transformer; it holds no state.
type byteDecoder struct{ t *byteTable }

func (d byteDecoder) Reset() {}

func (d byteDecoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	for ; nSrc < len(src); nSrc++ {
		r := d.t.runes[src[nSrc]]
		if nDst+utf8.RuneLen(r) > len(dst) {
			return nDst, nSrc, transform.ErrShortDst
		}
		nDst += utf8.EncodeRune(dst[nDst:], r)
	}
	return nDst, nSrc, nil
}
