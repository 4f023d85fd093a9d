package com.statefulcvm.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** What a compose must be before a procedure rolls it out, and how a refusal names the line and the reason. */
class ComposeCheckTest {

    @Test
    void aComposeWithServicesThatHaveAnImageOrABuildPasses() {
        assertThat(ComposeCheck.problem("""
                services:
                  web:
                    image: nginx:1.27
                    ports: ["8080:80"]
                  worker:
                    build: ./worker
                volumes:
                  data: {}
                """)).isEmpty();
    }

    @Test
    void textThatIsNotYamlIsRefusedWithItsLine() {
        assertThat(ComposeCheck.problem("this is: [not valid yaml")).hasValueSatisfying(p -> {
            assertThat(p.line()).isEqualTo(1);
            assertThat(p.reason()).startsWith("not valid YAML");
        });
        assertThat(ComposeCheck.problem("services:\n  web:\n    image: a\n   bad: indent\n"))
                .hasValueSatisfying(p -> assertThat(p.line()).isEqualTo(4));
    }

    @Test
    void theShapeIsChecked() {
        assertThat(ComposeCheck.problem("just text").orElseThrow().reason()).contains("must be a mapping");
        assertThat(ComposeCheck.problem("version: '3'\nvolumes: {}\n").orElseThrow().reason()).isEqualTo("the compose has no 'services'");
        assertThat(ComposeCheck.problem("services: [web]\n").orElseThrow().reason()).contains("'services' must be a mapping");
        assertThat(ComposeCheck.problem("services: {}\n").orElseThrow().reason()).contains("at least one service");
        assertThat(ComposeCheck.problem("services:\n  web: nginx\n").orElseThrow()).hasToString("line 2: service 'web' must be a mapping");
        assertThat(ComposeCheck.problem("services:\n  web:\n    image: a\n  db:\n    ports: [5432]\n").orElseThrow())
                .hasToString("line 4: service 'db' has neither 'image' nor 'build'");
    }

    @Test
    void duplicateKeysAndAliasBombsAreRefusedNotExpanded() {
        assertThat(ComposeCheck.problem("services:\n  web:\n    image: a\n  web:\n    image: b\n").orElseThrow())
                .hasToString("line 4: duplicate key 'web'");
        StringBuilder bomb = new StringBuilder("a: &a [x,x,x,x,x,x,x,x,x,x]\n");
        for (char c = 'b'; c <= 'z'; c++) {
            bomb.append(c).append(": &").append(c).append(" [*").append((char) (c - 1)).append(",*").append((char) (c - 1))
                    .append(",*").append((char) (c - 1)).append("]\n");
        }
        assertThat(ComposeCheck.problem(bomb + "services:\n  web:\n    image: a\n")).isPresent();
    }

    @Test
    void requireNamesTheField() {
        assertThatThrownBy(() -> ComposeCheck.require("dockerCompose", "services: {}\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("dockerCompose: line 1: 'services' must be a mapping of at least one service");
    }
}
