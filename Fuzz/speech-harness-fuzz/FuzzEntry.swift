import Foundation
import FuzzChecks
import SpeechCore

/// The reader this process fuzzes: `SPEECH_HARNESS_FUZZ_TARGET` (`scripts/fuzz` sets it).
enum FuzzEntry {
    static let target: FuzzTarget = {
        let name = HarnessSettings.fuzzTarget.text(in: HarnessEnvironment.process.variables) ?? ""
        guard let target = FuzzTarget.named(name) else {
            let known = FuzzTarget.all.map(\.name).joined(separator: ", ")
            fatalError("\(HarnessSettings.fuzzTarget.variable)='\(name)' names no target (known: \(known))")
        }
        return target
    }()
}

#if FUZZING
    import CLibFuzzer

    /// libFuzzer's entry: a contract violation stops the process, so the input is kept.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        if let violation = FuzzEntry.target.check(bytes) {
            fatalError("\(FuzzEntry.target.name): \(violation)")
        }
        return 0
    }

    /// The program's entry as the package manager links executables (it names the main symbol
    /// after the module): libFuzzer's driver with the arguments libFuzzer's own main would get.
    @_cdecl("speech_harness_fuzz_main")
    public func fuzzMain(
        _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    ) -> CInt {
        var count = argc
        var arguments = argv
        return LLVMFuzzerRunDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
    }
#else
    /// Without the fuzzer: `speech-harness-fuzz TARGET FILE…` runs each file through the target's
    /// contract (to reproduce a crash, or check a corpus), and `speech-harness-fuzz --list` names
    /// the targets.
    @main
    struct ReplayInputs {
        static func main() {
            let arguments = Array(CommandLine.arguments.dropFirst())
            if arguments.first == "--list" || arguments.isEmpty {
                for target in FuzzTarget.all {
                    print("\(target.name)\t\(target.summary)\t\(target.seeds.joined(separator: " "))")
                }
                return
            }
            guard let target = FuzzTarget.named(arguments[0]) else {
                FileHandle.standardError.write(
                    Data("speech-harness-fuzz: no target '\(arguments[0])' (see --list)\n".utf8))
                exit(2)
            }
            var violations = 0
            for file in arguments.dropFirst() {
                guard let data = FileManager.default.contents(atPath: file) else {
                    print("\(file): cannot read")
                    violations += 1
                    continue
                }
                let verdict = target.check(Array(data))
                print("\(file): \(verdict ?? "ok")")
                violations += verdict == nil ? 0 : 1
            }
            exit(violations == 0 ? 0 : 1)
        }
    }
#endif
