let s = """
  unterminated \(
#"raw"#
/* /* nested */
x.finalize(