import Foundation
import SpeechCore
import Testing

@Suite("Decoding problems in our words")
struct DecodingProblemTests {
    enum Colour: String, ClosedSetValue {
        case red, green, blue
        static let valueName = "colour"
    }

    struct Palette: Decodable {
        struct Swatch: Decodable {
            var colour: Colour
            var weight: Double?
        }
        var name: String
        var swatches: [Swatch]
        var count: Int?
        var tags: [String: String]?
    }

    /// An unknown value of a closed set names the value and every value allowed; a wrong type says
    /// what was expected and what the file has; the field is a path in the file's own terms.
    @Test(arguments: [
        (
            #"{"name":"p","swatches":[{"colour":"red"},{"colour":"mauve"}]}"#,
            "field 'swatches[1].colour': unknown colour 'mauve' (expected one of: red, green, blue)"
        ),
        (#"{"name":"p","swatches":{"colour":"red"}}"#, "field 'swatches': expected a list, got an object"),
        (#"{"name":["p"],"swatches":[]}"#, "field 'name': expected a string, got a list"),
        (#"{"name":"p","swatches":[],"count":"2"}"#, "field 'count': expected a whole number, got a string"),
        (
            #"{"name":"p","swatches":[],"count":2.5}"#,
            "a number does not fit its field (a fraction or an out-of-range value where a whole number is expected)"
        ),
        (
            #"{"name":"p","swatches":[{"colour":"red","weight":"heavy"}]}"#,
            "field 'swatches[0].weight': expected a number, got a string"
        ),
        (#"{"name":"p","swatches":[],"tags":[1]}"#, "field 'tags': expected an object, got a list"),
        (#"{"name":false,"swatches":[]}"#, "field 'name': expected a string, got false"),
        (#"{"name":null,"swatches":[]}"#, "field 'name': expected a string, got null"),
        (#"{"swatches":[]}"#, "field 'name': missing"),
        (#"[1, 2]"#, "expected an object, got a list"),
    ])
    func problemsNameTheFieldAndWhatIsWrong(json: String, message: String) {
        do {
            _ = try DecodingProblem.decode(Palette.self, from: Data(json.utf8))
            Issue.record("decoded \(json)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func textThatIsNotJSONSaysSo() {
        do {
            _ = try DecodingProblem.decode(Palette.self, from: Data("name: p".utf8))
            Issue.record("decoded text that is not JSON")
        } catch {
            #expect(error.path.isEmpty && error.description == "not valid JSON")
        }
    }

    @Test func theMessageNamesEveryValueInOrder() {
        #expect(Colour.unknown("teal") == "unknown colour 'teal' (expected one of: red, green, blue)")
    }
}
