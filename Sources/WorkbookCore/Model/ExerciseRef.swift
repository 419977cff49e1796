/// One exercise with its chapter: what a learner names, and what is built, run and graded.
package struct ExerciseRef: Sendable, Equatable {
    package var chapter: Chapter
    package var exercise: Exercise

    package init(chapter: Chapter, exercise: Exercise) {
        self.chapter = chapter
        self.exercise = exercise
    }
}
