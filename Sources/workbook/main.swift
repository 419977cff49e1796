import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine
import WorkbookMaintainer

RunningChildren.shared.endChildrenOnInterrupt(cleanup: Terminal.hold)
let status = CommandLine.run(Array(CommandLine.arguments.dropFirst()))
exit(status)
