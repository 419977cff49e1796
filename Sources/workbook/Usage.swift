enum Usage {
    static let main = """
    OVERVIEW: Dispatch Workbook — Grand Central Dispatch exercises graded under the Thread Sanitizer.

    USAGE: workbook <command> [options]

    COMMANDS:
      (none), progress           what is done, and the next exercise to work on
      check [exercise|chapter…]  grade your exercises under the Thread Sanitizer
      watch                      re-check the chapter you are editing on every save
      hint <exercise>            the next hint for an exercise (three steps)
      lesson <chapter>           read a chapter's lesson
      reset <exercise|chapter>   restore the starter (your file is backed up first)
      solution <exercise>        the reference solution, once you have passed the exercise
      selftest                   maintainers: every starter fails, every solution passes

    Names: an exercise is 1.1, 3.2, …; a chapter is 1, Chapter1 or Chapter1Latch.
    Run `workbook <command> --help` for a command's options.
    """
}
