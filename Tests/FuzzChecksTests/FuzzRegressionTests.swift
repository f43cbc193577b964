import Foundation
import FuzzChecks
import TestSupport
import Testing

/// The fuzz targets' committed inputs (Tests/Fixtures/fuzz/TARGET: the seeds made by hand and
/// every input a fuzzer found a fault with) meet their contract in a normal build: a fixed fault
/// stays fixed without a fuzzer.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let fixtures = SystemFixture.packageRoot + "/Tests/Fixtures/fuzz"

    static func inputs(_ target: FuzzTarget) -> [String] {
        let folder = fixtures + "/" + target.name
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted().map { folder + "/" + $0 }
    }

    @Test(arguments: FuzzTarget.all.map(\.name))
    func committedInputsMeetTheContract(target name: String) throws {
        let target = try #require(FuzzTarget.named(name))
        let files = Self.inputs(target)
        #expect(!files.isEmpty, "no committed inputs for \(name)")
        for file in files {
            let bytes = try #require(FileManager.default.contents(atPath: file))
            #expect(target.check(Array(bytes)) == nil, "\(file)")
        }
    }

    /// The contract is not vacuous: an error that does not name its file breaks it.
    @Test func aReaderWhoseErrorLosesTheFileBreaksTheContract() throws {
        let target = try #require(FuzzTarget.named("manifest"))
        // JSON lines (first byte 0) whose line is broken: the issue names the file and line.
        #expect(target.check([0] + Array("{\"id\":".utf8)) == nil)
        #expect(FuzzTarget.all.count == Set(FuzzTarget.all.map(\.name)).count)
    }
}
