/// The exercise × dimension table `workbook dimensions` prints: what each suite explores.
package enum DimensionTable {
    /// The table, its legend, and with `why` each exercise's cells spelled out; problems last.
    package static func render(_ declared: [ExerciseDimensions], problems: [String], why: Bool, style: Style, width: Int) -> String {
        var lines = [wrap("Dimensions each exercise's suite explores (\(style.pass) tested · – does not apply · ? still to do · \(style.fail) not declared)", width: width), ""]
        let idWidth = max(10, (declared.map(\.exercise.id.count).max() ?? 0) + 2)
        lines.append("exercise".padding(toLength: idWidth, withPad: " ", startingAt: 0)
                     + SuiteDimension.allCases.map { String($0.number).padding(toLength: 3, withPad: " ", startingAt: 0) }.joined())
        for item in declared {
            let marks = SuiteDimension.allCases.map { dimension -> String in
                switch item.cells[dimension] {
                case .tested?: style.pass + "  "
                case .notApplicable?: "–  "
                case .toDo?: "?  "
                case nil: style.fail + "  "
                }
            }
            lines.append(item.exercise.id.padding(toLength: idWidth, withPad: " ", startingAt: 0) + marks.joined())
        }
        lines.append("")
        for dimension in SuiteDimension.allCases {
            lines.append(wrap("\(dimension.number). \(dimension.rawValue): \(dimension.summary)", indent: "  ", width: width))
        }
        if why {
            for item in declared {
                lines += ["", style.bold("\(item.exercise.id) \(item.exercise.title)")]
                for dimension in SuiteDimension.allCases {
                    lines.append(wrap("\(dimension.number). \(dimension.rawValue): " + describe(item.cells[dimension]), indent: "      ", width: width))
                }
            }
        }
        if !problems.isEmpty {
            lines += ["", style.bold("\(problems.count) problem\(problems.count == 1 ? "" : "s") in the declarations:")]
            lines += problems.map { wrap("\(style.fail) \($0)", indent: "    ", width: width) }
        }
        return lines.joined(separator: "\n")
    }

    /// One cell, said in a line.
    static func describe(_ cell: DimensionCoverage?) -> String {
        switch cell {
        case let .tested(tests, corpus, note)?:
            "tests " + tests.joined(separator: ", ")
                + (corpus.isEmpty ? "" : "; corpus " + corpus.joined(separator: ", "))
                + (note.map { " — \($0)" } ?? "")
        case let .notApplicable(reason)?:
            "does not apply: \(reason)"
        case let .toDo(what)?:
            "still to do: \(what)"
        case nil:
            "not declared"
        }
    }
}
