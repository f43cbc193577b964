import Foundation
import HarnessCLI

exit(await SpeechHarnessTool.run(Array(CommandLine.arguments.dropFirst())))
