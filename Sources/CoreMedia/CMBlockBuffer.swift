import Foundation

/// CoreMedia's block buffer: a run of bytes, here held contiguously.
public final class CMBlockBuffer: @unchecked Sendable {
    private var bytes: Data
    private let lock = NSLock()

    init(bytes: Data) { self.bytes = bytes }

    /// A buffer of `length` zeroed bytes. Apple's initializer also takes an allocator, a range and
    /// flags (each with a default); memory here is always Swift's.
    public convenience init(length: Int) throws {
        guard length >= 0 else { throw CMBlockBuffer.Error.badLengthParameter }
        self.init(bytes: Data(count: length))
    }

    /// Total bytes the buffer holds.
    public var dataLength: Int { lock.withLock { bytes.count } }

    public var isEmpty: Bool { dataLength == 0 }

    /// A copy of all the bytes.
    public func dataBytes() throws -> Data { lock.withLock { bytes } }

    /// Copies the bytes into `destination`, which must hold them all.
    public func copyDataBytes(to destination: UnsafeMutableRawBufferPointer) throws {
        try lock.withLock {
            guard destination.count >= bytes.count else { throw CMBlockBuffer.Error.insufficientSpace }
            bytes.copyBytes(to: destination)
        }
    }

    /// Calls `body` with the bytes from `offset` on, which it may change.
    public func withUnsafeMutableBytes<R>(
        atOffset offset: Int = 0, _ body: (UnsafeMutableRawBufferPointer) throws -> R
    ) throws -> R {
        try lock.withLock {
            guard offset >= 0, offset <= bytes.count else { throw CMBlockBuffer.Error.badOffsetParameter }
            return try bytes.withUnsafeMutableBytes { try body(UnsafeMutableRawBufferPointer(rebasing: $0[offset...])) }
        }
    }

    /// CoreMedia's block buffer errors, with their codes.
    public struct Error: Swift.Error, Sendable, Equatable {
        public let code: Int32
        public static let insufficientSpace = Error(code: -12_781)
        public static let badOffsetParameter = Error(code: -12_703)
        public static let badLengthParameter = Error(code: -12_704)
    }
}

/// Read-only bytes for a sample buffer's content (SDK 26): offsets 0..<count over bytes that
/// cannot change; other buffers can be appended.
public struct CMReadOnlyDataBlockBuffer: Sendable {
    fileprivate var data: Data

    /// An empty buffer (the capacity is a hint, unused here).
    public init(subBlockCapacity: Int = 0) { data = Data() }

    /// The bytes of `data`.
    public init(_ data: Data) { self.data = data }

    /// The bytes of `dispatchData`.
    public init(_ dispatchData: DispatchData) { data = Data(dispatchData) }

    /// The bytes of an existing block buffer, which the caller gives up.
    public init(unsafeBlockBuffer: sending CMBlockBuffer) { data = (try? unsafeBlockBuffer.dataBytes()) ?? Data() }

    /// The bytes of a mutable buffer, frozen.
    public init(_ source: consuming CMMutableDataBlockBuffer) { data = source.data }

    public var count: Int { data.count }
    public var isEmpty: Bool { data.isEmpty }

    /// Calls `body` with a block buffer holding these bytes.
    public func withUnsafeBlockBuffer<R: ~Copyable>(_ body: (CMBlockBuffer) throws -> sending R) rethrows -> sending R {
        try body(CMBlockBuffer(bytes: data))
    }

    public static func + (lhs: CMReadOnlyDataBlockBuffer, rhs: CMReadOnlyDataBlockBuffer) -> CMReadOnlyDataBlockBuffer {
        CMReadOnlyDataBlockBuffer(lhs.data + rhs.data)
    }

    public static func += (lhs: inout CMReadOnlyDataBlockBuffer, rhs: CMReadOnlyDataBlockBuffer) {
        lhs.data += rhs.data
    }
}

/// Writable bytes (SDK 26), made to be frozen into a ``CMReadOnlyDataBlockBuffer``. Of Apple's
/// members this models the zeroed allocation, `count` and `extend(by:)`; its block regions, memory
/// pools and custom block sources are not here.
public struct CMMutableDataBlockBuffer: Sendable {
    fileprivate var data: Data

    /// `count` zeroed bytes.
    public init(count: Int = 0) { data = Data(count: max(0, count)) }

    public var count: Int { data.count }

    /// Appends `count` zeroed bytes.
    public mutating func extend(by count: Int) {
        precondition(count > 0, "extend(by:) needs a count above 0")
        data.append(Data(count: count))
    }
}

extension CMReadOnlyDataBlockBuffer {
    /// The bytes, for the harness's readers of sample buffers.
    @_spi(Harness) public var bytes: Data { data }
}
