/// Text made safe inside XML and HTML — element text and quoted attributes alike: `&`, `<`, `>`,
/// `"` and `'` as character references, and the control characters XML 1.0 does not allow (all but
/// tab, newline and carriage return) left out.
package func markupEscaped(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&#39;"
        default:
            if scalar.value < 0x20 && scalar != "\n" && scalar != "\t" && scalar != "\r" { continue }
            out.unicodeScalars.append(scalar)
        }
    }
    return out
}
