package com.statefulcvm.connectors.phala;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ApiErrorBodyTest {

    private static ApiErrorBody parse(int status, String body) {
        return ApiErrorBody.parse(status, body == null ? null : body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void detailAsText() {
        ApiErrorBody body = parse(409, "{\"detail\":\"CVM has an operation in progress\"}");
        assertThat(body.message()).isEqualTo("CVM has an operation in progress");
        assertThat(body.errorCode()).isNull();
    }

    @Test
    void detailAsValidationListJoinsLocationAndMessage() {
        ApiErrorBody body = parse(422, """
                {"detail":[{"loc":["body","name"],"msg":"field required","type":"value_error.missing"},
                           {"loc":["query","page"],"msg":"value is not a valid integer","type":"type_error.integer"}]}""");
        assertThat(body.message())
                .isEqualTo("body.name: field required; query.page: value is not a valid integer");
        assertThat(body.errorCode()).isNull();
    }

    @Test
    void structuredErrorKeepsCodeAndAddsFieldDetails() {
        ApiErrorBody body = parse(409, """
                {"error_code":"ERR-01-004","message":"Duplicate CVM name",
                 "details":[{"field":"name","value":"slot-a","message":"already exists"}],
                 "suggestions":["choose another name"],"links":[{"url":"https://x","label":"docs"}]}""");
        assertThat(body.errorCode()).isEqualTo(PhalaErrorCodes.DUPLICATE_CVM_NAME);
        assertThat(body.message()).isEqualTo("Duplicate CVM name (name: already exists)");
    }

    @Test
    void structuredErrorWithoutDetailsIsJustTheMessage() {
        ApiErrorBody body = parse(404, "{\"error_code\":\"ERR-03-001\",\"message\":\"CVM not found\",\"details\":[]}");
        assertThat(body.errorCode()).isEqualTo("ERR-03-001");
        assertThat(body.message()).isEqualTo("CVM not found");
    }

    @Test
    void structuredErrorNestedInDetail() {
        ApiErrorBody body = parse(400, "{\"detail\":{\"error_code\":\"ERR-02-015\",\"message\":\"Quota exceeded\"}}");
        assertThat(body.errorCode()).isEqualTo(PhalaErrorCodes.QUOTA_EXCEEDED);
        assertThat(body.message()).isEqualTo("Quota exceeded");
    }

    @Test
    void errorCodeWithoutMessageFallsBackToTheCode() {
        ApiErrorBody body = parse(400, "{\"error_code\":\"ERR-04-001\"}");
        assertThat(body.message()).isEqualTo("ERR-04-001");
    }

    @Test
    void bareMessage() {
        assertThat(parse(500, "{\"message\":\"Internal server error\"}").message()).isEqualTo("Internal server error");
    }

    @Test
    void plainTextIsKeptOnOneLine() {
        assertThat(parse(502, "upstream\n  connect error").message()).isEqualTo("upstream connect error");
    }

    @Test
    void longPlainTextIsTruncated() {
        String message = parse(500, "x".repeat(1000)).message();
        assertThat(message).hasSize(303).endsWith("...");
    }

    @Test
    void htmlAndEmptyBodiesFallBackToTheStatus() {
        assertThat(parse(502, "<html><body>Bad Gateway</body></html>").message()).isEqualTo("HTTP 502");
        assertThat(parse(404, "").message()).isEqualTo("HTTP 404");
        assertThat(parse(503, null).message()).isEqualTo("HTTP 503");
        assertThat(parse(503, "   ").message()).isEqualTo("HTTP 503");
    }

    @Test
    void unknownJsonShapeIsShownAsText() {
        assertThat(parse(400, "{\"oops\":1}").message()).isEqualTo("{\"oops\":1}");
    }

    @Test
    void brokenJsonIsShownAsText() {
        assertThat(parse(400, "{\"detail\": ").message()).isEqualTo("{\"detail\":");
    }
}
