// One column of the store: a run of plain values read in place, wherever they lie.
//
// A store loaded from JSON keeps its columns in Swift arrays; a store opened from
// its image (docs/architecture.md, "The store image") reads them where they lie in
// the mapped image file, with no copy. The query engine sees one type either way:
// a pointer, a count, and the owner that keeps the memory alive (the array's
// storage, or the mapping) for as long as any copy of the column exists. The
// memory is never written after the column is made, so a column is a value like an
// array and may be shared between threads.

/// Keeps a column's memory alive.
public protocol ColumnOwner: AnyObject, Sendable {}

/// The owner of a column made from an array: the one copy of that array. Nothing can
/// mutate it (the array is a `let` here and any other copy is copied on write), so its
/// contiguous storage stays where it is until the owner goes.
final class ArrayOwner<Element>: ColumnOwner, @unchecked Sendable {
    let array: [Element]
    init(_ array: [Element]) { self.array = array }
}

public struct StoreColumn<Element>: RandomAccessCollection, @unchecked Sendable {
    public typealias Index = Int
    public typealias SubSequence = Slice<StoreColumn<Element>>

    @usableFromInline let base: UnsafePointer<Element>?
    public let count: Int
    @usableFromInline let owner: (any ColumnOwner)?

    /// An empty column.
    public init() {
        self.init(base: nil, count: 0, owner: nil)
    }

    /// The column of an array's elements (the array's storage, not a copy of it).
    public init(_ array: [Element]) {
        let owner = ArrayOwner(array)
        // Taken from the owner's own copy, which nothing mutates: its storage does not move.
        self.init(base: owner.array.withUnsafeBufferPointer { $0.baseAddress }, count: array.count, owner: owner)
    }

    /// `count` elements at `base`, inside memory `owner` keeps alive and never writes.
    /// Only for plain values (integers, `Currency`, `Bool` checked to be 0 or 1).
    init(_ base: UnsafePointer<Element>, count: Int, owner: any ColumnOwner) {
        self.init(base: count > 0 ? base : nil, count: count, owner: owner)
    }

    private init(base: UnsafePointer<Element>?, count: Int, owner: (any ColumnOwner)?) {
        self.base = base
        self.count = count
        self.owner = owner
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }
    @inlinable public func index(after i: Int) -> Int { i + 1 }
    @inlinable public func index(before i: Int) -> Int { i - 1 }

    @inlinable
    public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < count, "StoreColumn index out of range")
        return base.unsafelyUnwrapped[position]
    }

    @inlinable
    public subscript(bounds: Range<Int>) -> Slice<StoreColumn<Element>> {
        precondition(bounds.lowerBound >= 0 && bounds.upperBound <= count, "StoreColumn range out of bounds")
        return Slice(base: self, bounds: bounds)
    }

    @inlinable
    public func withUnsafeBufferPointer<R, E: Error>(_ body: (UnsafeBufferPointer<Element>) throws(E) -> R) throws(E) -> R {
        try withExtendedLifetime(owner) { () throws(E) -> R in try body(UnsafeBufferPointer(start: base, count: count)) }
    }

    @inlinable
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try withUnsafeBufferPointer { (b) throws(E) -> R in try body(UnsafeRawBufferPointer(b)) }
    }

    /// The elements as an array (a copy).
    public var array: [Element] { withUnsafeBufferPointer { Array($0) } }
}

extension StoreColumn: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension StoreColumn: Equatable where Element: Equatable {
    public static func == (a: StoreColumn, b: StoreColumn) -> Bool {
        a.count == b.count && (a.base == b.base || a.elementsEqual(b))
    }
}

extension StoreColumn: CustomStringConvertible {
    public var description: String { array.description }
}
