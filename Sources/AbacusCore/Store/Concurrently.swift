// Running independent pieces of work at once: the columns of a store are built
// side by side, each by one job that owns its output.

import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Processors online, read once: large jobs are split in two only when there is a second.
public let onlineProcessors = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))

/// A place one job writes its result to, read once every job has finished.
public final class Slot<T>: @unchecked Sendable {
    public var value: T?
    public init() {}

    /// A slot holding `array`, which is left empty: the slot's copy is then the only one.
    static func moving<E>(_ array: inout [E]) -> Slot<[E]> where T == [E] {
        let s = Slot<[E]>()
        s.value = array
        array = []
        return s
    }

    /// The array a job filled, taken back.
    func take<E>() -> [E] where T == [E] { value ?? [] }
}

/// Runs the jobs on as many threads as there are processors, and returns when all are done.
func runConcurrently(_ jobs: [@Sendable () -> Void]) {
    DispatchQueue.concurrentPerform(iterations: jobs.count) { jobs[$0]() }
}

/// `column` in the row order `order` (nil: as it is), each element passed through `transform`.
func permuted<T, U>(_ column: [T], _ order: [UInt32]?, _ transform: (T) -> U) -> [U] {
    guard let order else { return column.map(transform) }
    return [U](unsafeUninitializedCapacity: order.count) { out, initialized in
        column.withUnsafeBufferPointer { src in
            for (i, r) in order.enumerated() { (out.baseAddress! + i).initialize(to: transform(src[Int(r)])) }
        }
        initialized = order.count
    }
}

/// `column` in the row order `order` (nil: as it is, without a copy).
func permuted<T>(_ column: [T], _ order: [UInt32]?) -> [T] {
    guard order != nil else { return column }
    return permuted(column, order) { $0 }
}

/// A thread of its own running `body` (with a stack of `stackBytes`, else the default); nil
/// when none could be started. Join it with `pthread_join`.
func startThread(stackBytes: Int? = nil, _ body: @escaping @Sendable () -> Void) -> pthread_t? {
    final class Body: @unchecked Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    if let stackBytes { pthread_attr_setstacksize(&attributes, stackBytes) }
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    #if canImport(Glibc)
    var handle = pthread_t()
    #else
    var handle: pthread_t?
    #endif
    let status = pthread_create(&handle, &attributes, { context in
        guard let context else { return nil }
        Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
        return nil
    }, context)
    guard status == 0 else {
        Unmanaged<Body>.fromOpaque(context).release()
        return nil
    }
    return handle
}
