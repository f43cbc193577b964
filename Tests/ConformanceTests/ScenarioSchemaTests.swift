import Foundation
import TestSupport
import Testing

@testable import Conformance

/// docs/scenario.schema.json against the decoder: the same steps and fields, every built-in file
/// valid, and a wrong file refused by both with the same field named (jsonschema, from PyPI, in
/// the bootstrap environment, validates).
@Suite("Scenario schema")
struct ScenarioSchemaTests {
    static let schema = SystemFixture.packageRoot + "/docs/scenario.schema.json"
    static let python = SystemFixture.packageRoot + "/.venv/bin/python"
    static let canValidate = SystemFixture.isCI || FileManager.default.isExecutableFile(atPath: python)

    /// The schema lists the steps in the table's order, each with the fields its type decodes.
    @Test func theSchemaHasTheTablesStepsAndFields() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.schema))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let defs = try #require(root["$defs"] as? [String: Any])
        let step = try #require(defs["step"] as? [String: Any])
        let names = try #require(
            ((step["properties"] as? [String: Any])?["do"] as? [String: Any])?["enum"] as? [String])
        #expect(names == ScenarioStep.kinds.map { $0.name })
        for (kind, fields) in ScenarioStep.fieldsByKind {
            let properties = (defs["step.\(kind)"] as? [String: Any])?["properties"] as? [String: Any]
            let documented = Set(try #require(properties, "no step.\(kind) in the schema").keys).subtracting(["do"])
            #expect(documented == Set(fields), "\(kind)")
        }
    }

    @Test(.enabled(if: canValidate)) func everyBuiltInScenarioFileFollowsTheSchema() throws {
        let folder = try #require(ScenarioCatalog.builtInDirectory)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        #expect(files.count >= 12)
        let script = """
            import json, sys, jsonschema
            validator = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
            problems = 0
            for path in sys.argv[2:]:
                for error in validator.iter_errors(json.load(open(path))):
                    problems += 1
                    print(path, list(error.absolute_path), error.message)
            print("problems", problems)
            """
        let run = try ExternalProgram.run(
            Self.python, ["-c", script, Self.schema] + files.map { folder.appendingPathComponent($0).path })
        #expect(run.status == 0 && run.output.hasSuffix("problems 0\n"), "\(run.output)\(run.errors)")
    }

    /// Each wrong step is refused by the schema and by the decoder, and both name the same field.
    @Test(.enabled(if: canValidate)) func aWrongFileIsRefusedByBothNamingTheSameField() throws {
        let steps = [
            #"{"do":"teleport"}"#,
            #"{"do":"feed","secnds":1}"#,
            #"{"do":"feed","seconds":"long"}"#,
            #"{"do":"finalize","expect":"fails:notACode"}"#,
            #"{"do":"finalize","expect":{"fails":{"domain":"SFSpeechError","code":"notACode"}}}"#,
            #"{"do":"finalize","expect":{"fails":{"domain":"kernel"}}}"#,
            #"{"do":"reserve","expect":"returns"}"#,
            #"{"do":"await"}"#,
            #"{"do":"checkReserved","value":"2"}"#,
            #"{"do":"checkStreams","value":"closed"}"#,
            #"{"do":"checkVolatileRange","value":{"end":{"atLeast":1,"most":2}}}"#,
            #"{"do":"addModule","kind":"synthesizer"}"#,
        ]
        let dir = try TemporaryDirectory()
        var files: [String] = []
        for (number, step) in steps.enumerated() {
            let text = #"{"id":"x","clause":"SA-VR-NIL","title":"t","modules":[],"steps":[\#(step)],"expect":{}}"#
            files.append(try dir.write("wrong\(number).json", bytes: Array(text.utf8)))
        }
        // The field the schema's best error is about: its path inside the step, plus the property
        // a missing or unexpected-property error names.
        let script = #"""
            import json, re, sys, jsonschema
            validator = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
            for path in sys.argv[2:]:
                error = jsonschema.exceptions.best_match(validator.iter_errors(json.load(open(path))))
                if error is None:
                    print("valid"); continue
                field = [str(part) for part in list(error.absolute_path)[2:]]
                named = re.search(r"'([^']+)' (was unexpected|is a required property)", error.message)
                if named: field.append(named.group(1))
                print(".".join(field))
            """#
        let run = try ExternalProgram.run(Self.python, ["-c", script, Self.schema] + files)
        #expect(run.status == 0, "\(run.errors)")
        let schemaFields = run.output.split(separator: "\n").map(String.init)
        #expect(schemaFields.count == steps.count)
        for (number, file) in files.enumerated() where number < schemaFields.count {
            var decoderField = "accepted"
            do {
                _ = try ScenarioCatalog.load(path: file)
            } catch {
                let text = "\(error)"
                decoderField =
                    text.range(of: "field '").map { String(text[$0.upperBound...].prefix { $0 != "'" }) } ?? text
            }
            #expect(decoderField == schemaFields[number], "\(steps[number])")
        }
    }
}
