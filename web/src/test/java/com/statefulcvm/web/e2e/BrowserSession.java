package com.statefulcvm.web.e2e;

import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * A real Chromium (Debian's {@code chromium}, driven through the system {@code chromedriver}; nothing is downloaded)
 * for the screens' tests: logs in as a user does, waits generously (the test machine is shared), and keeps a
 * screenshot of every step under {@code web/target/browser/}, one of the page as it was when a test failed
 * ({@code FAILED-<test>.png}), and, run with {@code -Dorch.docs.screenshots=true}, the documentation's images in
 * {@code docs/images/}.
 */
final class BrowserSession implements ExecutionCondition, AfterTestExecutionCallback {

    static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("CHROMIUM_BIN", "/usr/bin/chromium"));
    static final Path CHROMEDRIVER = Path.of(System.getenv().getOrDefault("CHROMEDRIVER_BIN", "/usr/bin/chromedriver"));
    private static final Path SHOTS = Path.of("target", "browser");
    private static final Path DOCS = Path.of("..", "docs", "images");
    private static final Duration PATIENCE = Duration.ofSeconds(180);
    /** The webapps' first page is a few megabytes of JavaScript, which a loaded machine serves and parses slowly. */
    private static final Duration FIRST_PAGE = Duration.ofSeconds(360);

    private ChromeDriver driver;
    private Path profile;
    private String base;
    private int step;

    static boolean available() {
        return Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    }

    /**
     * CI installs Chromium ({@code .ci/run} exports {@code ORCH_REQUIRE_BROWSER=1}; most CI services set {@code CI=true}):
     * there a missing browser fails the screens' tests instead of skipping them unseen.
     */
    static boolean required() {
        return "1".equals(System.getenv("ORCH_REQUIRE_BROWSER")) || "true".equalsIgnoreCase(System.getenv("CI"));
    }

    /** Without Chromium the screens' tests are skipped, saying why; in CI they fail (before any Spring context starts). */
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (available()) {
            return ConditionEvaluationResult.enabled("Chromium at " + CHROMIUM);
        }
        if (required()) {
            throw new IllegalStateException("CI (ORCH_REQUIRE_BROWSER=1 or CI=true) runs the screens' tests: " + unavailable());
        }
        return ConditionEvaluationResult.disabled(unavailable());
    }

    static String unavailable() {
        return "no Chromium to drive: " + CHROMIUM + " and " + CHROMEDRIVER + " must be executable (Debian packages chromium "
                + "and chromium-driver, which .ci/run installs; or set CHROMIUM_BIN and CHROMEDRIVER_BIN)";
    }

    void open(int port) {
        base = "http://localhost:" + port;
        try {
            if (Files.isDirectory(SHOTS)) {
                try (var old = Files.list(SHOTS)) {
                    for (Path shot : old.toList()) {
                        Files.delete(shot);
                    }
                }
            }
            profile = Files.createTempDirectory("orch-chromium-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        // without the background-networking switches a closed network refuses Chromium's own connections
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1400,1000", "--user-data-dir=" + profile);
        options.setCapability("goog:loggingPrefs", java.util.Map.of("browser", "ALL"));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(300));
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(60));
    }

    void close() {
        if (driver != null) {
            driver.quit();
        }
        if (profile != null) {
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            } catch (IOException | UncheckedIOException ignored) {
                // a temporary directory
            }
        }
    }

    WebDriver driver() {
        return driver;
    }

    String url(String path) {
        return base + path;
    }

    void go(String path) {
        driver.get(url(path));
    }

    /** Logs in through the webapp's own login page; the session then serves Cockpit, Tasklist and our /api. */
    void login(String app, String user, String password) {
        driver.manage().deleteAllCookies();
        go("/camunda/app/" + app + "/default/");
        WebElement name = new WebDriverWait(driver, FIRST_PAGE, Duration.ofMillis(500))
                .until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("input[type=text]")));
        name.sendKeys(user);
        driver.findElement(By.cssSelector("input[type=password]")).sendKeys(password);
        driver.findElement(By.cssSelector("button[type=submit]")).click();
        until(ExpectedConditions.invisibilityOfElementLocated(By.cssSelector("input[type=password]")));
    }

    <T> T until(Function<WebDriver, T> condition) {
        return new WebDriverWait(driver, PATIENCE, Duration.ofMillis(250)).ignoring(org.openqa.selenium.StaleElementReferenceException.class)
                .until(condition);
    }

    WebElement visible(String css) {
        return until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(css)));
    }

    List<WebElement> all(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    /** Clicks as a user does, the element scrolled into view first (Cockpit's fixed header covers the page's top). */
    void click(WebElement element) {
        for (int attempt = 1; ; attempt++) {
            ((JavascriptExecutor) driver).executeScript("arguments[0].scrollIntoView({block: 'center'});", element);
            try {
                until(ExpectedConditions.elementToBeClickable(element)).click();
                return;
            } catch (org.openqa.selenium.ElementClickInterceptedException movedMeanwhile) {
                // a form that lays itself out as it loads (textareas grow) moved the element: scroll to it again
                if (attempt >= 5) {
                    throw movedMeanwhile;
                }
                awaitLaidOut(element);
            }
        }
    }

    /** Until the element stays where it is from one look to the next (the form has stopped laying itself out). */
    private void awaitLaidOut(WebElement element) {
        org.openqa.selenium.Point[] last = {null};
        until(d -> {
            org.openqa.selenium.Point now = element.getLocation();
            boolean still = now.equals(last[0]);
            last[0] = now;
            return still;
        });
    }

    /**
     * Clicks what {@code target} finds until {@code outcome} holds, a few times: a webapp that enables a button before
     * its form has settled loses a click made in that moment (Tasklist's start dialog does). The outcome's value.
     */
    <T> T clickUntil(java.util.function.Supplier<WebElement> target, Function<WebDriver, T> outcome) {
        for (int attempt = 1; ; attempt++) {
            click(target.get());
            try {
                return new WebDriverWait(driver, attempt < 4 ? Duration.ofSeconds(15) : PATIENCE, Duration.ofMillis(250))
                        .ignoring(org.openqa.selenium.StaleElementReferenceException.class).until(outcome);
            } catch (org.openqa.selenium.TimeoutException notYet) {
                if (attempt >= 4) {
                    throw notYet;
                }
            }
        }
    }

    void click(String css) {
        click(visible(css));
    }

    /** The element whose visible text is exactly {@code text}, among those {@code css} selects. */
    WebElement withText(String css, String text) {
        return until(d -> d.findElements(By.cssSelector(css)).stream().filter(e -> e.isDisplayed() && text.equals(e.getText().strip()))
                .findFirst().orElse(null));
    }

    Object script(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    Object asyncScript(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeAsyncScript(script, args);
    }

    /** The page now, kept as the next numbered step; also as a documentation image when asked for one. */
    void shot(String name, String docsImage) {
        byte[] png = ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES);
        try {
            Files.createDirectories(SHOTS);
            Files.write(SHOTS.resolve(String.format("%02d-%s.png", ++step, name)), png);
            if (docsImage != null && Boolean.getBoolean("orch.docs.screenshots")) {
                Files.createDirectories(DOCS);
                Path tmp = Files.createTempFile("shot", ".png");
                Files.write(tmp, png);
                Files.move(tmp, DOCS.resolve(docsImage), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void shot(String name) {
        shot(name, null);
    }

    @Override
    public void afterTestExecution(ExtensionContext context) {
        if (context.getExecutionException().isPresent() && driver != null) {
            try {
                shot("FAILED-" + context.getRequiredTestMethod().getName());
                Files.write(SHOTS.resolve(String.format("%02d-FAILED-%s-console.log", step, context.getRequiredTestMethod().getName())),
                        driver.manage().logs().get("browser").getAll().stream().map(Object::toString).toList());
                // what the page said, below the fold too (the screenshot shows only the window)
                Files.writeString(SHOTS.resolve(String.format("%02d-FAILED-%s-page.txt", step, context.getRequiredTestMethod().getName())),
                        driver.getCurrentUrl() + "\n\n" + script("return document.body.innerText;"));
            } catch (RuntimeException | IOException screenshotFailed) {
                context.getExecutionException().get().addSuppressed(screenshotFailed);
            }
        }
    }
}
