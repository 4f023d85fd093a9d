package com.statefulcvm.processes.diagram;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.statefulcvm.processes.diagram.DiagramRules.Problem;
import com.statefulcvm.processes.diagram.DiagramRules.Rule;

/** Each diagram rule on a small diagram that breaks it, and the same diagram drawn right. */
class DiagramRulesTest {

    /** Start, a task with a timer on its bottom edge, two ends; drawn right. */
    static final String PROCESS = """
            <bpmn:startEvent id="Start" />
            <bpmn:task id="Work" />
            <bpmn:boundaryEvent id="Late" attachedToRef="Work" />
            <bpmn:endEvent id="Done" />
            <bpmn:endEvent id="GaveUp" />
            <bpmn:sequenceFlow id="ToWork" sourceRef="Start" targetRef="Work" />
            <bpmn:sequenceFlow id="ToDone" sourceRef="Work" targetRef="Done" />
            <bpmn:sequenceFlow id="ToGaveUp" sourceRef="Late" targetRef="GaveUp" />
            """;
    static final String DI = """
            <bpmndi:BPMNShape bpmnElement="Start"><dc:Bounds x="100" y="100" width="36" height="36" /></bpmndi:BPMNShape>
            <bpmndi:BPMNShape bpmnElement="Work"><dc:Bounds x="200" y="78" width="100" height="80" /></bpmndi:BPMNShape>
            <bpmndi:BPMNShape bpmnElement="Late"><dc:Bounds x="232" y="140" width="36" height="36" />
              <bpmndi:BPMNLabel><dc:Bounds x="272" y="180" width="40" height="14" /></bpmndi:BPMNLabel></bpmndi:BPMNShape>
            <bpmndi:BPMNShape bpmnElement="Done"><dc:Bounds x="400" y="100" width="36" height="36" /></bpmndi:BPMNShape>
            <bpmndi:BPMNShape bpmnElement="GaveUp"><dc:Bounds x="400" y="220" width="36" height="36" /></bpmndi:BPMNShape>
            <bpmndi:BPMNEdge bpmnElement="ToWork"><di:waypoint x="136" y="118" /><di:waypoint x="200" y="118" /></bpmndi:BPMNEdge>
            <bpmndi:BPMNEdge bpmnElement="ToDone"><di:waypoint x="300" y="118" /><di:waypoint x="400" y="118" /></bpmndi:BPMNEdge>
            <bpmndi:BPMNEdge bpmnElement="ToGaveUp"><di:waypoint x="250" y="176" /><di:waypoint x="250" y="238" />
              <di:waypoint x="400" y="238" /></bpmndi:BPMNEdge>
            """;

    @Test
    void aDiagramDrawnRightHasNoProblem() {
        assertThat(check(PROCESS, plane("Process", DI))).isEmpty();
    }

    @Test
    void anElementWithoutShapeIsReported() {
        String withoutDone = DI.replaceAll("<bpmndi:BPMNShape bpmnElement=\"Done\">.*</bpmndi:BPMNShape>\n", "");

        assertThat(rulesBrokenBy(withoutDone)).containsExactly(Rule.NOT_DRAWN);
    }

    @Test
    void aLabelWithAnExpressionIsReported() {
        String process = PROCESS.replace("<bpmn:task id=\"Work\" />", "<bpmn:task id=\"Work\" name=\"Drain ${slot}\" />");

        assertThat(rules(check(process, plane("Process", DI)))).containsExactly(Rule.EXPRESSION_IN_LABEL);
    }

    @Test
    void twoShapesOnEachOtherAreReported() {
        String onTheTask = DI.replace("x=\"400\" y=\"100\"", "x=\"280\" y=\"100\"");

        assertThat(rulesBrokenBy(onTheTask)).contains(Rule.OVERLAP);
    }

    @Test
    void boundaryEventsStackedCloserThanTheirSizeAreReported() {
        String process = PROCESS.replace("<bpmn:endEvent id=\"Done\" />",
                "<bpmn:boundaryEvent id=\"Failed\" attachedToRef=\"Work\" /><bpmn:endEvent id=\"Done\" />");
        String twentyApart = DI + """
                <bpmndi:BPMNShape bpmnElement="Failed"><dc:Bounds x="252" y="140" width="36" height="36" /></bpmndi:BPMNShape>
                """;

        assertThat(rules(check(process, plane("Process", twentyApart)))).contains(Rule.CROWDED_BOUNDARIES);
    }

    @Test
    void aBoundaryEventAwayFromItsHostIsReported() {
        String offTheEdge = DI.replace("x=\"232\" y=\"140\"", "x=\"232\" y=\"300\"");

        assertThat(rulesBrokenBy(offTheEdge)).contains(Rule.DETACHED_BOUNDARY);
    }

    /** The pile the old layout made: the nested elements of a collapsed sub-process drawn in the top-level plane. */
    @Test
    void aCollapsedSubProcessWithoutItsOwnPlaneIsReported() {
        String process = """
                <bpmn:subProcess id="Sub"><bpmn:startEvent id="Inner" /></bpmn:subProcess>
                """;
        String pile = """
                <bpmndi:BPMNShape bpmnElement="Sub"><dc:Bounds x="100" y="100" width="100" height="80" /></bpmndi:BPMNShape>
                <bpmndi:BPMNShape bpmnElement="Inner"><dc:Bounds x="300" y="100" width="36" height="36" /></bpmndi:BPMNShape>
                """;

        assertThat(rules(check(process, plane("Process", pile)))).containsExactlyInAnyOrder(Rule.NO_PLANE, Rule.WRONG_PLANE);
    }

    @Test
    void aCollapsedSubProcessWithItsPlaneOrAnExpandedOneIsRight() {
        String process = """
                <bpmn:subProcess id="Sub"><bpmn:startEvent id="Inner" /></bpmn:subProcess>
                """;
        String collapsed = """
                <bpmndi:BPMNShape bpmnElement="Sub"><dc:Bounds x="100" y="100" width="100" height="80" /></bpmndi:BPMNShape>
                """;
        String inner = """
                <bpmndi:BPMNShape bpmnElement="Inner"><dc:Bounds x="100" y="100" width="36" height="36" /></bpmndi:BPMNShape>
                """;
        String expanded = """
                <bpmndi:BPMNShape bpmnElement="Sub" isExpanded="true"><dc:Bounds x="100" y="100" width="300" height="200" />
                </bpmndi:BPMNShape>
                <bpmndi:BPMNShape bpmnElement="Inner"><dc:Bounds x="150" y="150" width="36" height="36" /></bpmndi:BPMNShape>
                """;

        assertThat(check(process, plane("Process", collapsed) + plane("Sub", inner))).isEmpty();
        assertThat(check(process, plane("Process", expanded))).isEmpty();
    }

    @Test
    void aFlowThroughAnotherShapeIsReported() {
        String doneInTheWay = DI.replace("x=\"400\" y=\"100\"", "x=\"320\" y=\"220\"")
                .replace("<di:waypoint x=\"400\" y=\"118\" />", "<di:waypoint x=\"338\" y=\"118\" /><di:waypoint x=\"338\" y=\"220\" />");

        assertThat(rulesBrokenBy(doneInTheWay)).containsExactly(Rule.FLOW_THROUGH_SHAPE);
    }

    @Test
    void aFlowThatDoesNotReachItsTargetIsReported() {
        String shortOfDone = DI.replace("<di:waypoint x=\"400\" y=\"118\" />", "<di:waypoint x=\"350\" y=\"118\" />");

        assertThat(rulesBrokenBy(shortOfDone)).containsExactly(Rule.FLOW_DETACHED);
    }

    @Test
    void labelsOnEachOtherOrOnAShapeAreReported() {
        String onTheEnd = DI.replace("x=\"272\" y=\"180\"", "x=\"390\" y=\"225\"");

        assertThat(rulesBrokenBy(onTheEnd)).contains(Rule.LABEL_OVERLAP);
    }

    @Test
    void twoUnrelatedFlowsAlongTheSameLineAreReported() {
        String alongToDone = DI.replaceAll("(?s)<bpmndi:BPMNEdge bpmnElement=\"ToGaveUp\">.*?</bpmndi:BPMNEdge>", """
                <bpmndi:BPMNEdge bpmnElement="ToGaveUp"><di:waypoint x="250" y="176" /><di:waypoint x="250" y="200" />
                  <di:waypoint x="340" y="200" /><di:waypoint x="340" y="118" /><di:waypoint x="380" y="118" />
                  <di:waypoint x="380" y="238" /><di:waypoint x="400" y="238" /></bpmndi:BPMNEdge>""");

        assertThat(rulesBrokenBy(alongToDone)).containsExactly(Rule.FLOWS_SHARE_A_LINE);
    }

    /** The rules the example process breaks when drawn with this DI. */
    private static List<Rule> rulesBrokenBy(String di) {
        return rules(check(PROCESS, plane("Process", di)));
    }

    private static List<Rule> rules(List<Problem> problems) {
        return problems.stream().map(Problem::rule).distinct().toList();
    }

    private static String plane(String element, String shapes) {
        return "<bpmndi:BPMNDiagram><bpmndi:BPMNPlane id=\"Plane_" + element + "\" bpmnElement=\"" + element + "\">\n"
                + shapes + "</bpmndi:BPMNPlane></bpmndi:BPMNDiagram>\n";
    }

    private static List<Problem> check(String process, String diagrams) {
        String xml = """
                <?xml version="1.0" encoding="UTF-8"?>
                <bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
                    xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI"
                    xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI"
                    id="Definitions" targetNamespace="test">
                <bpmn:process id="Process">
                """ + process + "</bpmn:process>\n" + diagrams + "</bpmn:definitions>\n";
        BpmnFile file = BpmnFile.parse("test.bpmn", new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        return DiagramRules.check(file);
    }
}
