/// `text` padded with spaces to `width` columns, or followed by one space when it is that wide already.
package func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}
