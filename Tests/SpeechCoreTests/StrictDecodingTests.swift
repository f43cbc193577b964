import Foundation
import SpeechCore
import Testing

@Suite("Strict decoding")
struct StrictDecodingTests {
    struct Inner: Decodable, Equatable {
        var name: String
        var weight: Double?
    }

    struct Outer: Decodable, Equatable {
        var items: [Inner]
        var byName: [String: Inner]?
        var nested: Inner?
    }

    func problem(_ json: String) -> String? {
        do {
            _ = try DecodingProblem.decode(Outer.self, from: Data(json.utf8), strict: true)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aFileWithOnlyKnownFieldsDecodesAsUsual() throws {
        let json = #"{"items":[{"name":"a","weight":1.5}],"byName":{"k":{"name":"b"}},"nested":{"name":"c"}}"#
        let strict = try DecodingProblem.decode(Outer.self, from: Data(json.utf8), strict: true)
        #expect(strict == (try DecodingProblem.decode(Outer.self, from: Data(json.utf8))))
        #expect(strict.byName?["k"]?.name == "b")
    }

    @Test(arguments: [
        (#"{"items":[],"iterms":[]}"#, "field 'iterms': unknown field (known fields: byName, items, nested)"),
        (
            #"{"items":[{"name":"a"},{"name":"b","wieght":2}]}"#,
            "field 'items[1].wieght': unknown field (known fields: name, weight)"
        ),
        (
            #"{"items":[],"byName":{"k":{"name":"b","x":1}}}"#,
            "field 'byName.k.x': unknown field (known fields: name, weight)"
        ),
        (
            #"{"items":[],"nested":{"name":"c","extra":null}}"#,
            "field 'nested.extra': unknown field (known fields: name, weight)"
        ),
    ])
    func anUnknownFieldIsNamedWithTheKnownOnes(json: String, message: String) {
        #expect(problem(json) == message)
    }

    /// Without `strict`, readers that must accept fields from newer writers still do.
    @Test func lenientDecodingIgnoresUnknownFields() throws {
        let decoded = try DecodingProblem.decode(Outer.self, from: Data(#"{"items":[],"future":1}"#.utf8))
        #expect(decoded.items.isEmpty)
    }
}
