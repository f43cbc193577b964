import Foundation

/// Decoding that rejects fields a type does not read: a misspelt field in a file we read
/// (`"requries"`, `"prest"`) is an error naming it, never a setting silently left at its default.
///
/// It wraps the decoder JSONDecoder hands out: every keyed container remembers the keys the
/// object has and the keys the type asked about (`decode`, `decodeIfPresent`, `contains`), and
/// when the type's `init(from:)` returns, a key nobody asked about is a `dataCorrupted` error at
/// that key, listing the fields the type knows.
public struct StrictlyDecoded<Value: Decodable>: Decodable {
    public var value: Value

    public init(from decoder: any Decoder) throws {
        let audit = FieldAudit()
        value = try Value(from: AuditingDecoder(inner: decoder, audit: audit))
        try audit.check()
    }
}

/// The keyed containers one value's decoding opened, and what it read of each.
final class FieldAudit {
    final class Object {
        let codingPath: [any CodingKey]
        let present: [String]
        var asked: Set<String> = []

        init(codingPath: [any CodingKey], present: [String]) {
            self.codingPath = codingPath
            self.present = present
        }
    }

    private var objects: [Object] = []

    func open(codingPath: [any CodingKey], present: [String]) -> Object {
        let object = Object(codingPath: codingPath, present: present)
        objects.append(object)
        return object
    }

    /// A key is unknown when nothing that opened its object asked for it: a type may read one
    /// object through several containers (a step's kind, then its own fields).
    func check() throws {
        var askedAt: [String: Set<String>] = [:]
        for object in objects { askedAt[Self.place(object.codingPath), default: []].formUnion(object.asked) }
        for object in objects {
            let asked = askedAt[Self.place(object.codingPath)] ?? []
            guard let unknown = object.present.first(where: { !asked.contains($0) }) else { continue }
            let known = asked.sorted()
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: object.codingPath + [FieldName(unknown)],
                    debugDescription: known.isEmpty
                        ? "unknown field (this object has no fields)"
                        : "unknown field (known fields: \(known.joined(separator: ", ")))"))
        }
    }

    private static func place(_ path: [any CodingKey]) -> String {
        path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
}

/// Any key of a JSON object, to list what the object has or read one by name.
public struct FieldName: CodingKey, Sendable {
    public var stringValue: String
    public var intValue: Int? { nil }

    public init(_ name: String) { stringValue = name }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}

struct AuditingDecoder: Decoder {
    let inner: any Decoder
    let audit: FieldAudit

    var codingPath: [any CodingKey] { inner.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { inner.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let container = try inner.container(keyedBy: type)
        let present = try inner.container(keyedBy: FieldName.self).allKeys.map(\.stringValue)
        let object = audit.open(codingPath: inner.codingPath, present: present)
        return KeyedDecodingContainer(AuditingKeyedContainer(inner: container, object: object, audit: audit))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        AuditingUnkeyedContainer(inner: try inner.unkeyedContainer(), audit: audit)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        AuditingSingleValueContainer(inner: try inner.singleValueContainer())
    }
}

/// The values JSON holds directly; anything else inside a container is decoded strictly too,
/// and audited when its own decoding ends.
protocol PlainJSONValue {}
extension Bool: PlainJSONValue {}
extension String: PlainJSONValue {}
extension Double: PlainJSONValue {}
extension Float: PlainJSONValue {}
extension Int: PlainJSONValue {}
extension Int8: PlainJSONValue {}
extension Int16: PlainJSONValue {}
extension Int32: PlainJSONValue {}
extension Int64: PlainJSONValue {}
extension UInt: PlainJSONValue {}
extension UInt8: PlainJSONValue {}
extension UInt16: PlainJSONValue {}
extension UInt32: PlainJSONValue {}
extension UInt64: PlainJSONValue {}

struct AuditingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let inner: KeyedDecodingContainer<Key>
    let object: FieldAudit.Object
    let audit: FieldAudit

    var codingPath: [any CodingKey] { inner.codingPath }
    var allKeys: [Key] { inner.allKeys }

    private func ask(_ key: Key) { object.asked.insert(key.stringValue) }

    func contains(_ key: Key) -> Bool {
        ask(key)
        return inner.contains(key)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        ask(key)
        return try inner.decodeNil(forKey: key)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        ask(key)
        if type is any PlainJSONValue.Type { return try inner.decode(type, forKey: key) }
        return try inner.decode(StrictlyDecoded<T>.self, forKey: key).value
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try plain(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try plain(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try plain(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try plain(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try plain(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try plain(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try plain(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try plain(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try plain(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try plain(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try plain(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try plain(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try plain(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try plain(type, key) }

    private func plain<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        ask(key)
        return try inner.decode(type, forKey: key)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        ask(key)
        return try AuditingDecoder(inner: try inner.superDecoder(forKey: key), audit: audit).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        ask(key)
        return AuditingUnkeyedContainer(inner: try inner.nestedUnkeyedContainer(forKey: key), audit: audit)
    }

    func superDecoder() throws -> any Decoder { AuditingDecoder(inner: try inner.superDecoder(), audit: audit) }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ask(key)
        return AuditingDecoder(inner: try inner.superDecoder(forKey: key), audit: audit)
    }
}

struct AuditingUnkeyedContainer: UnkeyedDecodingContainer {
    var inner: any UnkeyedDecodingContainer
    let audit: FieldAudit

    var codingPath: [any CodingKey] { inner.codingPath }
    var count: Int? { inner.count }
    var isAtEnd: Bool { inner.isAtEnd }
    var currentIndex: Int { inner.currentIndex }

    mutating func decodeNil() throws -> Bool { try inner.decodeNil() }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if type is any PlainJSONValue.Type { return try inner.decode(type) }
        return try inner.decode(StrictlyDecoded<T>.self).value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try AuditingDecoder(inner: try inner.superDecoder(), audit: audit).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        AuditingUnkeyedContainer(inner: try inner.nestedUnkeyedContainer(), audit: audit)
    }

    mutating func superDecoder() throws -> any Decoder {
        AuditingDecoder(inner: try inner.superDecoder(), audit: audit)
    }
}

struct AuditingSingleValueContainer: SingleValueDecodingContainer {
    let inner: any SingleValueDecodingContainer

    var codingPath: [any CodingKey] { inner.codingPath }

    func decodeNil() -> Bool { inner.decodeNil() }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if type is any PlainJSONValue.Type { return try inner.decode(type) }
        return try inner.decode(StrictlyDecoded<T>.self).value
    }
}
