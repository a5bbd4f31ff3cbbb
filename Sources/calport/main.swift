import Foundation

exit(CalportCLI.run(Array(CommandLine.arguments.dropFirst())).rawValue)
