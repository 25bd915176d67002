// Where lines end in a file Abacus reads (a ledger, a rate file, a bank statement): at LF,
// CRLF, or a lone CR (a file saved by an old Mac program). One rule for every reader, so
// that the lines errors name agree with the lines an editor shows.

public enum LineBreak {
    /// The length of the line break at `i`: 1 for LF or a lone CR, 2 for CRLF, 0 for none.
    @inlinable
    public static func length<C: RandomAccessCollection>(in bytes: C, at i: C.Index) -> Int where C.Element == UInt8 {
        let b = bytes[i]
        if b == 0x0A { return 1 }
        guard b == 0x0D else { return 0 }
        let next = bytes.index(after: i)
        return next != bytes.endIndex && bytes[next] == 0x0A ? 2 : 1
    }

    /// Whether a line ends at `i`: at LF, or at a lone CR (a CR before LF does not; the LF does).
    @inlinable
    public static func ends<C: RandomAccessCollection>(in bytes: C, at i: C.Index) -> Bool where C.Element == UInt8 {
        LineBreak.length(in: bytes, at: i) == 1
    }
}
