import MigrationLint
import Records
import Testing

/// The block shapes the rules rely on, as Swift's parser reads them: functions, types (with
/// extension names), loops and catch clauses with the `do` body they answer.
@Suite("Source structure")
struct SourceStructureTests {
    static func structure(_ source: String) -> SourceStructure {
        SourceStructure(parsing: source)
    }

    static func index(of text: String, in structure: SourceStructure, occurrence: Int = 0) -> Int {
        structure.tokens.indices.filter { structure.tokens[$0].text == text }[occurrence]
    }

    /// A default parameter value does not make a function a closure assignment, and a computed
    /// property's body is a function (a public app's `startAnalyzer(onFailure: … = nil)` and
    /// SwiftUI's `var body: some View`).
    @Test func defaultValuesAndComputedPropertiesAreFunctions() {
        let source = """
            final class M {
                func start(onFailure: ((Error) -> Void)? = nil) { marker() }
                var body: some View { marker() }
                let handler = { marker() }
            }
            """
        let structure = Self.structure(source)
        let names = (0..<3).map {
            structure.enclosingFunction(of: Self.index(of: "marker", in: structure, occurrence: $0))?.name
        }
        #expect(names == ["start", "body", nil])
    }

    @Test func functionsAndTypesAreNamed() {
        let source = """
            final class Live<T>: NSObject {
                func stop() { marker() }
            }
            extension Outer.Inner where T: Sendable {
                init() { marker() }
            }
            """
        let structure = Self.structure(source)
        let first = Self.index(of: "marker", in: structure)
        let second = Self.index(of: "marker", in: structure, occurrence: 1)
        #expect(structure.enclosingFunction(of: first)?.name == "stop")
        #expect(structure.enclosingTypeName(of: first) == "Live")
        #expect(structure.enclosingFunction(of: second)?.name == "init")
        #expect(structure.enclosingTypeName(of: second) == "Outer.Inner")
        #expect(structure.enclosingTypeName(of: 0) == nil)
    }

    @Test func catchClausesKnowTheirDoBody() {
        let source = """
            do {
                try await analyzer.start(inputSequence: input)
            }
            catch let error as CancellationError {
                first()
            } catch {
                second()
            }
            """
        let structure = Self.structure(source)
        let tried = Self.index(of: "analyzer", in: structure)
        for name in ["first", "second"] {
            let position = Self.index(of: name, in: structure)
            let clause = structure.enclosingBlocks(of: position).last
            guard case .catchClause(let body) = clause?.kind else {
                Issue.record("\(name)() is not in a catch clause: \(String(describing: clause?.kind))")
                continue
            }
            #expect(body.contains(tried))
        }
    }

    @Test func forLoopsKeepTheirSequenceAsHeader() {
        let structure = Self.structure("for locale in reserved.sorted() { release(locale) }")
        let block = structure.enclosingBlocks(of: Self.index(of: "release", in: structure)).last
        #expect(block?.kind == .loop)
        #expect(
            block.map { structure.tokens[$0.header].map(\.text) } == [
                "locale", "in", "reserved", ".", "sorted", "(", ")",
            ])
    }
}
