import Foundation
import WorkbookKit

RunningChildren.shared.endChildrenOnInterrupt()
let status = CommandLine.run(Array(CommandLine.arguments.dropFirst()))
exit(status)
