package com.statefulcvm.connectors.phala.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class CvmInfoTest {

    private final ObjectMapper mapper = PhalaJson.objectMapper();

    private CvmInfo read(String json) throws JsonProcessingException {
        return mapper.readValue(json, CvmInfo.class);
    }

    @Test
    void settledWhenNothingIsInProgress() throws Exception {
        assertThat(read("{\"in_progress\":false,\"progress\":{\"target\":\"\"}}").isSettled()).isTrue();
        assertThat(read("{\"in_progress\":false,\"progress\":null}").isSettled()).isTrue();
        assertThat(read("{\"progress\":{\"target\":null}}").isSettled()).isTrue();
        assertThat(read("{}").isSettled()).isTrue();
    }

    @Test
    void notSettledWhileInProgressOrWithATarget() throws Exception {
        assertThat(read("{\"in_progress\":true}").isSettled()).isFalse();
        assertThat(read("{\"in_progress\":false,\"progress\":{\"target\":\"running\"}}").isSettled()).isFalse();
        assertThat(read("{\"in_progress\":true,\"progress\":{\"target\":\"\"}}").isSettled()).isFalse();
    }

    @Test
    void runningOnlyForTheExactStatus() throws Exception {
        assertThat(read("{\"status\":\"running\"}").isRunning()).isTrue();
        assertThat(read("{\"status\":\"starting\"}").isRunning()).isFalse();
        assertThat(read("{\"status\":\"Running-ish\"}").isRunning()).isFalse();
        assertThat(read("{}").isRunning()).isFalse();
    }

    @Test
    void dockerComposeComesFromTheComposeFile() throws Exception {
        assertThat(read("{}").dockerCompose()).isNull();
        assertThat(read("{\"compose_file\":{\"docker_compose_file\":\"a: 1\"}}").dockerCompose()).isEqualTo("a: 1");
        assertThat(read("{\"compose_file\":\"{\\\"docker_compose_file\\\":\\\"b: 2\\\"}\"}").dockerCompose())
                .isEqualTo("b: 2");
        assertThat(read("{\"compose_file\":null}").composeFile()).isNull();
    }

    @Test
    void composeFileStringThatIsNotJsonIsAMappingError() {
        assertThatThrownBy(() -> read("{\"compose_file\":\"services: {}\"}")).isInstanceOf(JsonMappingException.class);
    }

    @Test
    void nodeIdAcceptsNumberOrString() throws Exception {
        assertThat(read("{\"node_info\":{\"id\":12}}").nodeInfo().id()).isEqualTo("12");
        assertThat(read("{\"node_info\":{\"id\":\"n-12\"}}").nodeInfo().id()).isEqualTo("n-12");
    }

    @Test
    void writesSnakeCaseWithoutNullsOrDerivedProperties() throws Exception {
        CvmInfo cvm = read("{\"id\":\"cvm_1\",\"vm_uuid\":\"u\",\"status\":\"running\",\"in_progress\":false,"
                + "\"compose_file\":{\"docker_compose_file\":\"x\"}}");

        String json = mapper.writeValueAsString(cvm);

        assertThat(mapper.readTree(json)).isEqualTo(mapper.readTree(
                "{\"id\":\"cvm_1\",\"vm_uuid\":\"u\",\"status\":\"running\",\"in_progress\":false,"
                        + "\"compose_file\":{\"docker_compose_file\":\"x\"}}"));
        assertThat(read(json)).isEqualTo(cvm);
    }
}
