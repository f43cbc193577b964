import Foundation
import HarnessCLI

exit(SpeechHarnessTool.run(Array(CommandLine.arguments.dropFirst())))
