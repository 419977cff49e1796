import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine

RunningChildren.shared.endChildrenOnInterrupt(cleanup: Terminal.hold)
// The environment, read once here; what the tool does depends on it only through this value.
let environment = WorkbookEnvironment.process
let status = CommandLine.run(Array(CommandLine.arguments.dropFirst()), environment: environment)
exit(status)
