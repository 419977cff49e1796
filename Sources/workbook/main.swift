import Foundation
import WorkbookKit

RunningChildren.shared.endChildrenOnInterrupt(cleanup: Terminal.hold)
let status = CommandLine.run(Array(CommandLine.arguments.dropFirst()))
exit(status)
