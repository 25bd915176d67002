// How many terminal columns a string takes.
//
// Table columns are aligned by display width, not by bytes or characters:
// combining marks, bidi controls (the RLM that Arabic currency formats carry) and
// other format characters take no width; East Asian wide characters and emoji
// presented as emoji take two. A flag (two regional indicators) takes two, one
// for each letter, and a Hangul syllable written as conjoining jamo takes the two
// of its leading consonant (its vowel and final consonant join it), as terminals
// and glibc's wcwidth count them.

public enum TextWidth {
    public static func of(_ s: String) -> Int {
        var width = 0
        for scalar in s.unicodeScalars { width += of(scalar) }
        return width
    }

    public static func of(_ u: Unicode.Scalar) -> Int {
        let v = u.value
        if v < 0x20 || (v >= 0x7F && v < 0xA0) { return 0 }
        if v < 0x300 { return 1 }
        switch u.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if u.properties.isDefaultIgnorableCodePoint { return 0 }
        // Hangul jamo vowels and final consonants join the leading consonant before them.
        if (0x1160...0x11FF).contains(v) || (0xD7B0...0xD7FF).contains(v) { return 0 }
        // Regional indicators: one column each, so a flag's pair takes two.
        if (0x1F1E6...0x1F1FF).contains(v) { return 1 }
        // Emoji shown as emoji by default (☕, ⚡, 🚀) take two columns, as East Asian Wide.
        if u.properties.isEmojiPresentation { return 2 }
        return isWide(v) ? 2 : 1
    }

    /// East Asian Wide and Fullwidth ranges (Unicode 15, abridged to whole blocks).
    static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// The longest prefix that fits `width` columns with a trailing "…".
    public static func truncate(_ s: String, to width: Int) -> String {
        guard of(s) > width else { return s }
        var out = ""
        var used = 0
        for ch in s {
            let w = of(String(ch))
            if used + w > width - 1 { break }
            out.append(ch)
            used += w
        }
        return out + "…"
    }
}
