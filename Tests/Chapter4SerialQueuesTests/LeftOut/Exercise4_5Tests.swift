// Built in place of ../Exercise4_5Tests.swift when plain `swift test` leaves 4.5 out (its file is the
// untouched starter, which does not compile on purpose; see Package.swift), so that running 4.5's
// suite fails and says why, instead of running nothing and passing.

import Testing
import WorkbookTestSupport

@Suite("4.5 AuthToken.token — left out of this build", .gradedUnderTSan)
struct Exercise4_5Tests {
    @Test("4.5 was built and its tests ran")
    func wasBuilt() {
        recordLeftOut(exercise: "4.5", chapter: "Chapter4SerialQueues", file: "AuthToken.swift")
    }
}
