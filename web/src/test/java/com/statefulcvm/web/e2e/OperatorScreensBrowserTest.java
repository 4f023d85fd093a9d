package com.statefulcvm.web.e2e;

import com.statefulcvm.web.E2eSupport;
import com.statefulcvm.web.api.ProcedureKind;
import com.statefulcvm.web.api.ProcedureReport;
import com.statefulcvm.web.api.Reports;
import com.statefulcvm.web.api.RolloutProgress;
import com.statefulcvm.web.security.Roles;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.identity.User;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The operator's screens in a real Chromium, as README's tour walks them, through the webapps' own login, session, CSRF
 * token and forms: an operator starts a rollout of webdemo from the Cockpit dashboard (after its plan preview), claims
 * and approves it in Tasklist with the approval form, pauses and resumes it from the rollout's page in Cockpit with a
 * reason, and watches it complete on the dashboard and in its history; a refused start in Tasklist is a message on the
 * form and Tasklist goes on working; a scale starts from Tasklist's start form; a viewer sees the fleet and no way to
 * start anything. Screenshots of every step go to {@code web/target/browser/}; a failure adds the page it failed on.
 * Skipped, saying why, only where no Chromium is installed, and never in CI (which installs it): there it fails.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles({"e2e", "browser"})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OperatorScreensBrowserTest {

    private static final String SET = "webdemo";
    private static final String NEW_COMPOSE = "services:\n  web:\n    image: nginxdemos/hello:0.4\n    ports:\n      - \"8080:80\"\n"
            + "    restart: always\n";
    private static final String VIEWER = "vera";
    private static final String VIEWER_PASSWORD = "vera-reads-only";

    @RegisterExtension
    static final BrowserSession browser = new BrowserSession();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        E2eSupport.onFreePortWithDatabase(registry, "browser-test");
    }

    @AfterAll
    static void closeBrowser() {
        browser.close();
    }

    @Value("${server.port}")
    int port;
    @Autowired
    TaskService tasks;
    @Autowired
    HistoryService history;
    @Autowired
    RuntimeService runtime;
    @Autowired
    IdentityService identity;
    @Autowired
    ProcedureReport reports;

    private void openBrowser() {
        if (browser.driver() == null) {
            browser.open(port);
        }
    }

    /** One test's unfinished procedure would refuse the next one's start: each test leaves none behind. */
    @org.junit.jupiter.api.AfterEach
    void endWhatIsStillRunning() {
        E2eSupport.deleteRunning(runtime, "rollout");
        E2eSupport.deleteRunning(runtime, "scale");
    }

    @Test
    @Order(1)
    void anOperatorRollsOutFromCockpitApprovesInTasklistAndWatchesItComplete() {
        openBrowser();
        browser.login("cockpit", "admin", "admin");
        browser.visible("[data-orch=fleet] table");
        assertThat(browser.visible("[data-orch=you]").getText()).contains("may start rollout");

        // the start form, prefilled with the set's compose (restart: always and all), and the plan before anything starts
        browser.click("[data-orch=start-rollout-" + SET + "]");
        WebElement compose = browser.visible("textarea[name=dockerCompose]");
        browser.until(d -> !compose.getDomProperty("value").isBlank());
        assertThat(compose.getDomProperty("value")).contains("nginxdemos/hello:0.3").contains("restart: always");
        compose.clear();
        compose.sendKeys(NEW_COMPOSE);
        browser.click("[data-orch=preview]");
        WebElement plan = browser.visible("[data-orch=plan-view] table");
        List<String> rows = plan.findElements(By.cssSelector("tbody tr")).stream().map(WebElement::getText).toList();
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0)).startsWith("1 " + SET + "-1 RESTART");
        assertThat(rows.get(1)).startsWith("2 " + SET + "-0 RESTART");
        browser.shot("cockpit-plan-preview", "cockpit-plan-preview.png");

        browser.click("[data-orch=start]");
        String pid = browser.visible("[data-orch=started-instance]").getText().replace("process instance", "").strip();
        assertThat(browser.visible("[data-orch=started-page]").getAttribute("href")).endsWith("#/orchestrator/procedures/" + pid);
        assertThat(history.createHistoricProcessInstanceQuery().processInstanceId(pid).singleResult().getStartUserId()).isEqualTo("admin");
        // the message stays; the fleet shows the rollout running and its approval waiting, linked to Tasklist
        // the dashboard redraws itself every few seconds: the link is read in one go, not kept as an element
        String approvalLink = browser.until(d -> {
            WebElement link = d.findElement(By.cssSelector("[data-orch=approvals-" + SET + "] a"));
            return link.isDisplayed() && link.getText().equals("Approve rollout of " + SET) ? link.getAttribute("href") : null;
        });
        browser.visible("[data-orch=running-" + SET + "] a");
        assertThat(browser.visible("[data-orch=message-success]").getText()).contains("Rollout of " + SET + " started");
        browser.shot("cockpit-fleet", "cockpit-fleet.png");

        // Tasklist, on the same session: claim, read, decide with the form's explicit choice
        browser.driver().get(approvalLink);
        decide("Approve this rollout", "looks good", "tasklist-approval.png");
        Task nextWave = await().atMost(Duration.ofMinutes(2)).until(() -> tasks.createTaskQuery().processInstanceId(pid)
                .taskDefinitionKey("UserTask_ApproveNextWave").singleResult(), t -> t != null);

        // the rollout's page in Cockpit: pause it, with the reason recorded
        browser.go("/camunda/app/cockpit/default/#/process-instance/" + pid + "/runtime");
        browser.visible(".djs-container");
        // our controls are words in their own framed group, not icons beside Camunda's Suspend and Delete
        assertThat(browser.visible("[data-orch=actions] [data-orch=control-pause]").getText()).isEqualTo("Pause rollout");
        assertThat(browser.visible("[data-orch=actions] [data-orch=control-abort]").getText()).isEqualTo("Abort rollout");
        control("pause", "the DBA asked for a break", "Pause requested");

        // the next wave's approval (the form was driven above); the pause takes hold before that wave
        identity.setAuthentication("admin", List.of(Roles.ADMINS));
        try {
            tasks.complete(nextWave.getId(), Map.of("approved", true));
        } finally {
            identity.clearAuthentication();
        }
        await().atMost(Duration.ofMinutes(2)).until(() -> runtime.createEventSubscriptionQuery().processInstanceId(pid)
                .eventName("ResumeRollout").count() == 1);
        browser.driver().navigate().refresh();
        browser.visible(".djs-container");
        // the diagram, drilled down to the waves, with the rollout held at the wave boundary, as the guide shows it
        drillDown("SubProcess_RollOutInWaves");
        browser.visible(".djs-overlays[data-container-id=Event_WaitForResume]");
        browser.shot("cockpit-rollout", "cockpit-rollout.png");
        // labels in words: what Cockpit draws is the label as written, never an expression
        assertThat(browser.all(".djs-container .djs-label, .djs-container text").stream().map(WebElement::getText))
                .isNotEmpty().noneMatch(label -> label.contains("${"));
        // the Fleet's row draws where the rollout stands: wave 1 done, wave 2 held by the pause
        browser.go("/camunda/app/cockpit/default/#/dashboard");
        String progress = browser.until(d -> {
            String states = d.findElements(By.cssSelector("[data-orch=progress-" + SET + "] [data-orch-wave]")).stream()
                    .map(s -> s.getAttribute("data-orch-wave")).collect(java.util.stream.Collectors.joining(","));
            return states.equals("done,running") ? d.findElement(By.cssSelector("[data-orch=progress-" + SET + "]")).getText() : null;
        });
        assertThat(progress).contains("wave 2 of 2").contains("1 of 2 instances updated").contains("paused");
        // the Fleet's row reads two variables, not the whole report: it says the same as the report, but for the clock
        RolloutProgress fleetRow = reports.progress(pid);
        RolloutProgress inReport = ((Reports.Rollout) reports.report(ProcedureKind.ROLLOUT,
                history.createHistoricProcessInstanceQuery().processInstanceId(pid).singleResult())).progress();
        assertThat(fleetRow).usingRecursiveComparison().ignoringFields("elapsedSeconds", "summary").isEqualTo(inReport);
        assertThat(fleetRow.summary()).startsWith("wave 2 of 2, 1 of 2 instances updated").endsWith(", paused");
        browser.shot("cockpit-fleet-progress");
        // the rollout's own page, opened from its runtime page: the diagram marks where it stands, the timeline what it did
        browser.go("/camunda/app/cockpit/default/#/process-instance/" + pid + "/runtime");
        browser.click("[data-orch=actions] [data-orch=procedure-page-button]");
        browser.visible("[data-orch=diagram] .djs-element.orch-active[data-element-id=SubProcess_RollOutInWaves]");
        browser.visible("[data-orch=diagram] .djs-element.orch-visited[data-element-id=UserTask_ApproveRollout]");
        assertThat(browser.visible("[data-orch=timeline] tr[data-orch-step=UserTask_ApproveRollout]").getText()).contains("done");
        assertThat(browser.visible("[data-orch=procedure-header]").getText()).contains("ACTIVE").contains("Open it in Cockpit's runtime view");
        assertThat(browser.all("[data-orch=diagram] text").stream().map(WebElement::getText)).contains("Approve the rollout")
                .noneMatch(label -> label.contains("${"));
        // the timeline names the task as Tasklist did, with the set in it
        assertThat(browser.visible("[data-orch=timeline] tr[data-orch-step=UserTask_ApproveRollout]").getText()).contains("Approve rollout of " + SET);
        browser.shot("cockpit-procedure-running");
        browser.go("/camunda/app/cockpit/default/#/process-instance/" + pid + "/runtime");
        browser.visible("[data-orch=actions] [data-orch=control-resume]");
        control("resume", "break over", "Resumed");

        // watch it end: the fleet's running column empties, the set's history has the report
        browser.go("/camunda/app/cockpit/default/#/dashboard");
        browser.visible("[data-orch=fleet] table");
        browser.until(d -> d.findElements(By.cssSelector("[data-orch=running-" + SET + "]")).isEmpty());
        // both instances on the new compose hash (the instances are read from Phala here), and ready again
        browser.click("[data-orch=instances-" + SET + "]");
        List<String> hashes = browser.visible("[data-orch=instances-" + SET + "].orch-panel table").findElements(By.cssSelector("tbody tr"))
                .stream().map(row -> row.findElements(By.tagName("td")).get(5).getText()).toList();
        assertThat(hashes).hasSize(2).doesNotContainNull();
        assertThat(hashes.get(0)).isNotBlank().isEqualTo(hashes.get(1));
        // each instance's last hour as a strip: its last state is the one the row says now
        for (String slot : List.of(SET + "-0", SET + "-1")) {
            browser.until(d -> {
                List<WebElement> segments = d.findElements(By.cssSelector("[data-orch=strip-" + slot + "] rect"));
                return !segments.isEmpty() && "healthy".equals(segments.get(segments.size() - 1).getAttribute("data-orch-state")) ? true : null;
            });
        }
        browser.shot("cockpit-instances");
        // the open panel is read again with the Fleet, no click needed: it never shows an older state than the row
        String firstRead = browser.visible("[data-orch=instances-read]").getText();
        browser.until(d -> d.findElements(By.cssSelector("[data-orch=instances-read]")).stream()
                .anyMatch(read -> read.getText().startsWith("Read from Phala at") && !read.getText().equals(firstRead)) ? true : null);
        browser.until(d -> d.findElement(By.cssSelector("[data-orch=conditions-" + SET + "]")).getText().equals("Ready"));
        HistoricProcessInstance ended = history.createHistoricProcessInstanceQuery().processInstanceId(pid).singleResult();
        assertThat(ended.getEndActivityId()).isEqualTo("EndEvent_RolloutCompleted");
        browser.click("[data-orch=history-" + SET + "]");
        browser.click(browser.visible("[data-orch=history-panel] [data-orch=open-report]"));
        String report = browser.visible("[data-orch=report]").getText();
        assertThat(report).contains("completed").contains("the DBA asked for a break").contains("break over");
        assertThat(browser.visible("[data-orch=history-report] [data-orch=report-page]").getAttribute("href")).endsWith("/" + pid);
        // the comment is the first approval's only: the second was given none
        assertThat(report.split("looks good", -1)).hasSize(2);
        browser.shot("cockpit-history", "cockpit-history.png");

        // the finished rollout keeps a page (Cockpit's runtime view has none for it): the diagram it ran on with every
        // element it passed and the flows it took, its timeline and its report
        browser.click("[data-orch=history-panel] a[data-orch=procedure-link][href$='/" + pid + "']");
        assertThat(browser.visible("[data-orch=procedure-header]").getText()).contains("COMPLETED").doesNotContain("runtime view");
        browser.visible("[data-orch=diagram] .djs-element.orch-visited[data-element-id=EndEvent_RolloutCompleted]");
        assertThat(browser.all("[data-orch=diagram] .djs-element.orch-active")).as("nothing is running any more").isEmpty();
        assertThat(browser.all("[data-orch=diagram] .djs-connection.orch-taken")).isNotEmpty();
        assertThat(browser.visible("[data-orch=procedure-page] [data-orch=report]").getText()).contains("break over");
        assertThat(browser.all("[data-orch=procedure-page] [data-orch=report-page]")).as("no link to the page it is on").isEmpty();
        List<String> states = browser.all("[data-orch=timeline] [data-orch=step-state]").stream().map(WebElement::getText).toList();
        assertThat(states).isNotEmpty().containsOnly("done");
        // each instance's steps name their own instance, and the change is drawn side by side
        assertThat(browser.all("[data-orch=timeline] tr[data-orch-step=Task_ProbeHealth] td:nth-child(2)").stream()
                .map(WebElement::getText).toList()).containsExactlyInAnyOrder(SET + "-0", SET + "-1");
        assertThat(browser.visible("[data-orch=compose-diff] .orch-diff-removed").getText()).contains("nginxdemos/hello:0.3");
        assertThat(browser.visible("[data-orch=compose-diff] .orch-diff-added").getText()).contains("nginxdemos/hello:0.4");
        browser.shot("cockpit-procedure", "cockpit-procedure.png");
        // a step it called opens on the same page, under the rollout
        browser.click("[data-orch=timeline] a[href*='/orchestrator/procedures/']");
        assertThat(browser.visible("[data-orch=called-by]").getText()).isEqualTo(pid);
        browser.visible("[data-orch=diagram] .djs-element.orch-visited");
        browser.shot("cockpit-procedure-called");

        // a rollback to a chosen revision from the set's history: its compose and plan first, then the rollout
        browser.go("/camunda/app/cockpit/default/#/dashboard");
        browser.click("[data-orch=history-" + SET + "]");
        assertThat(browser.visible("[data-orch=revisions-" + SET + "]").getText()).contains("r1").contains("r2").contains("current");
        assertThat(browser.all("[data-orch=revisions-" + SET + "] [data-orch=rollback-2]")).as("not to the current one").isEmpty();
        browser.click("[data-orch=revisions-" + SET + "] [data-orch=rollback-1]");
        assertThat(browser.visible("[data-orch=rollback-compose]").getText()).contains("nginxdemos/hello:0.3");
        assertThat(browser.visible("[data-orch=dialog] [data-orch=plan-view]").getText()).contains("RESTART");
        browser.shot("cockpit-rollback-dialog");
        browser.click("[data-orch=rollback-confirm]");
        String rollback = browser.visible("[data-orch=rollback-started]").getAttribute("href").replaceAll(".*/", "");
        assertThat(runtime.getVariable(rollback, "rollbackToRevision")).isEqualTo(1);
        assertThat(browser.all("[data-orch=dialog]")).isEmpty();
    }

    @Test
    @Order(2)
    void aRefusedStartIsAMessageOnTheFormAndAScaleStartsFromTasklist() {
        openBrowser();
        browser.login("tasklist", "admin", "admin");
        startForm("Roll out a new compose to a replica set");
        browser.visible("input[id$=Field_ReplicaSet]").sendKeys("nosuchset");
        browser.visible("textarea[id$=Field_DockerCompose]").sendKeys(NEW_COMPOSE);
        // Tasklist enables Start once the form has reported its state; a click before that is lost, so it is repeated
        String refusal = browser.clickUntil(() -> browser.withText(".modal button", "Start"), d -> d.findElements(By.cssSelector(".modal .alert"))
                .stream().map(WebElement::getText).filter(text -> text.contains("could not be started")).findFirst().orElse(null));
        assertThat(refusal).contains("replicaSet: unknown replica set 'nosuchset'").doesNotContain("500").doesNotContain("ENGINE-");
        browser.shot("tasklist-refused-start");

        // Tasklist goes on: back to the list, the scale's form
        browser.click(browser.withText(".modal button", "Back"));
        browser.click(browser.withText(".modal a", "Scale a replica set"));
        browser.visible("input[id$=Field_ReplicaSet]").sendKeys(SET);
        browser.visible("input[id$=Field_Replicas]").sendKeys("3");
        browser.visible("input[id$=Field_Reason]").sendKeys("more capacity");
        browser.shot("tasklist-start-scale", "tasklist-start-scale.png");
        browser.clickUntil(() -> browser.withText(".modal button", "Start"), d -> d.findElements(By.cssSelector(".modal")).isEmpty() ? true : null);
        HistoricProcessInstance scale = await().atMost(Duration.ofMinutes(2)).until(() -> history.createHistoricProcessInstanceQuery()
                .processDefinitionKey("scale").processInstanceBusinessKey(SET).finished().singleResult(), p -> p != null);
        assertThat(scale.getStartUserId()).isEqualTo("admin");
        assertThat(scale.getEndActivityId()).isEqualTo("EndEvent_Scaled");
        browser.until(d -> d.findElement(By.tagName("body")).getText().contains("All tasks"));
        assertThat(browser.driver().findElement(By.tagName("body")).getText()).doesNotContain("finished with failures");
    }

    /** A lights-out recovery of a set in no outage: the dialog says so, and the start is refused without the override. */
    @Test
    @Order(4)
    void aLightsOutRecoveryOfAHealthySetAsksForTheOverrideAndIsRefusedWithoutIt() {
        openBrowser();
        browser.login("cockpit", "admin", "admin");
        browser.visible("[data-orch=fleet] table");
        long before = history.createHistoricProcessInstanceQuery().processDefinitionKey("lights-out-recovery").count();
        browser.click("[data-orch=start-lights-out-recovery-" + SET + "]");
        assertThat(browser.visible("[data-orch=not-in-outage]").getText()).contains(SET + " is not in an outage");
        browser.visible("[data-orch=start-lights-out-recovery] input[name=reason], [data-orch=start-lights-out-recovery] textarea[name=reason]")
                .sendKeys("testing the guard");
        browser.click("[data-orch=start]");
        String refused = browser.until(d -> {
            String text = d.findElement(By.cssSelector("[data-orch=form-error]")).getText();
            return text.isBlank() ? null : text;
        });
        assertThat(refused).contains("is not in an outage").contains("overrideNoOutage: true and a reason");
        assertThat(browser.visible("[data-orch=override-no-outage]").isSelected()).isFalse();
        browser.shot("cockpit-lights-out-guard");
        assertThat(history.createHistoricProcessInstanceQuery().processDefinitionKey("lights-out-recovery").count())
                .as("nothing started").isEqualTo(before);
    }

    @Test
    @Order(3)
    void aViewerSeesTheFleetAndNoWayToStartAnything() {
        openBrowser();
        if (identity.createUserQuery().userId(VIEWER).count() == 0) {
            User vera = identity.newUser(VIEWER);
            vera.setFirstName("Vera");
            vera.setLastName("Viewer");
            vera.setPassword(VIEWER_PASSWORD);
            identity.saveUser(vera);
            identity.createMembership(VIEWER, Roles.VIEWERS);
        }
        browser.login("cockpit", VIEWER, VIEWER_PASSWORD);
        browser.visible("[data-orch=fleet] table");
        assertThat(browser.visible("[data-orch=you]").getText()).contains("may look, not start");
        assertThat(browser.visible("[data-orch=actions-" + SET + "]").getText()).doesNotContain("Roll out").contains("History");
        assertThat(browser.all("[data-orch^=start-]")).isEmpty();
        browser.click("[data-orch=instances-" + SET + "]");
        browser.visible("[data-orch=instances-" + SET + "].orch-panel table");
        assertThat(browser.all("[data-orch^=heal-], [data-orch^=readmit-]")).isEmpty();
        browser.shot("cockpit-viewer");

        // the procedure's page offers no start; and the server refuses the viewer's start anyway, session and token or not
        browser.go("/camunda/app/cockpit/default/#/processes");
        browser.visible("[data-orch=procedures] table");
        browser.shot("cockpit-procedures", "cockpit-procedures.png");
        browser.click("[data-orch=procedure-rollout]");
        browser.visible(".djs-container");
        browser.until(d -> ((Number) browser.script("return performance.getEntriesByType('resource')"
                + ".filter(r => r.name.endsWith('/api/fleet')).length")).intValue() > 0);
        assertThat(browser.all("[data-orch=start-from-definition]")).isEmpty();
        Object status = browser.asyncScript("const done = arguments[arguments.length - 1];"
                + "const token = (document.cookie.match(/XSRF-TOKEN=([^;]*)/) || [])[1] || '';"
                + "fetch('/api/replica-sets/" + SET + "/rollouts', {method: 'POST', credentials: 'same-origin',"
                + " headers: {'Content-Type': 'application/json', 'X-XSRF-TOKEN': token}, body: JSON.stringify({dockerCompose: 'services: {}'})})"
                + ".then(r => done(r.status), e => done(String(e)));");
        assertThat(status).isEqualTo(403L);

        // Tasklist offers nothing to start
        browser.go("/camunda/app/tasklist/default/");
        browser.click(browser.withText("a", "Start process"));
        browser.visible(".modal");
        browser.until(d -> !d.findElements(By.cssSelector(".modal .modal-body")).isEmpty());
        assertThat(browser.all(".modal li a")).isEmpty();
        browser.shot("tasklist-viewer-start-process");
    }

    /** Claims the open task shown, chooses {@code choice} on its form, comments and completes it. */
    private void decide(String choice, String comment, String docsImage) {
        browser.visible("input[type=radio]");
        browser.click(browser.withText("a, button", "Claim"));
        WebElement option = browser.until(d -> d.findElements(By.cssSelector(".fjs-form-field-radio label")).stream()
                .filter(label -> label.getText().strip().equals(choice)).findFirst()
                .map(label -> label.findElement(By.cssSelector("input"))).filter(WebElement::isEnabled).orElse(null));
        browser.click(option);
        browser.visible("input[id$=Field_Comment]").sendKeys(comment);
        browser.shot("tasklist-decision", docsImage);
        browser.click(browser.withText("button", "Complete"));
        browser.until(d -> d.findElements(By.cssSelector(".fjs-form-field-radio")).isEmpty());
    }

    /** Pause, resume or abort from the rollout's page in Cockpit, with a reason; the answer shown. */
    private void control(String action, String reason, String answer) {
        browser.click("[data-orch=control-" + action + "]");
        browser.visible("[data-orch=control-reason]").sendKeys(reason);
        browser.click("[data-orch=control-confirm]");
        browser.until(d -> d.findElements(By.cssSelector("[data-orch=control-answer] p")).stream()
                .anyMatch(p -> p.getText().contains(answer)) ? true : null);
        // done: the dialog has closed itself, the answer stays beside the buttons
        browser.until(d -> d.findElements(By.cssSelector("[data-orch=dialog]")).isEmpty());
    }

    /** Opens a collapsed subprocess of the diagram shown, as its drill-down button does. */
    private void drillDown(String subProcess) {
        browser.click(".djs-overlays[data-container-id=" + subProcess + "] .bjs-drilldown");
    }

    /** Tasklist's "Start process" dialog, on the named procedure's start form. */
    private void startForm(String procedure) {
        browser.click(browser.withText("a", "Start process"));
        browser.click(browser.withText(".modal a", procedure));
        browser.visible(".modal .fjs-form");
    }
}
