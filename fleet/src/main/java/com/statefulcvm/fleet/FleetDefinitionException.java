package com.statefulcvm.fleet;

import java.util.List;

/** A fleet file that cannot be used; the message lists every problem, one per line. */
public class FleetDefinitionException extends RuntimeException {

    private final List<String> problems;

    public FleetDefinitionException(List<String> problems) {
        super("Invalid fleet definition:\n  - " + String.join("\n  - ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
