using System.Text.Json;

namespace BLite.Cli.Tests.Studio;

/// <summary>
/// The studio's flow in Firefox, the second browser the pages must work in: the token turned into
/// a cookie, the check, keyset paging both ways, a filter with its plan, an edit and an invalid
/// edit seen through the engine, and a request without the cookie refused. Steps run as scripts in
/// the page (click, fill, then wait in the page until the expected text appears).
/// </summary>
public class StudioFirefoxTests : IClassFixture<FirefoxBidi>
{
    /// <summary>Page helpers: wait until an element's text holds a string, click, and fill an input as typing does.</summary>
    private const string Helpers =
        """
        window.__studio = {
          waitFor(selector, text) {
            return new Promise((resolve, reject) => {
              const give_up = Date.now() + 10000;
              const look = () => {
                const found = document.querySelector(selector);
                if (found && (found.value ?? found.textContent).includes(text)) { resolve(true); return; }
                if (Date.now() > give_up) { reject(new Error(`${selector} never held '${text}'; it holds '${found ? (found.value ?? found.textContent) : "(missing)"}'`)); return; }
                requestAnimationFrame(look);
              };
              look();
            });
          },
          click(selector) { const target = document.querySelector(selector); if (!target) throw new Error(`no ${selector}`); target.click(); return true; },
          fill(selector, value) { const input = document.querySelector(selector); input.value = value; input.dispatchEvent(new Event("input", { bubbles: true })); return true; },
        };
        true
        """;

    private readonly FirefoxBidi _firefox;

    public StudioFirefoxTests(FirefoxBidi firefox) => _firefox = firefox;

    private Task WaitFor(string selector, string text) =>
        _firefox.EvaluateAsync($"__studio.waitFor({JsonSerializer.Serialize(selector)}, {JsonSerializer.Serialize(text)})");

    private Task Click(string selector) => _firefox.EvaluateAsync($"__studio.click({JsonSerializer.Serialize(selector)})");

    private Task Fill(string selector, string value) =>
        _firefox.EvaluateAsync($"__studio.fill({JsonSerializer.Serialize(selector)}, {JsonSerializer.Serialize(value)})");

    private Task Screenshot(string name) => _firefox.ScreenshotAsync(Path.Combine(StudioBrowser.ScreenshotDirectory, "firefox-" + name + ".png"));

    [Fact]
    public async Task Browse_page_query_edit_and_refuse_in_Firefox()
    {
        await using var host = await StudioHost.StartAsync(orders: 120);

        // The printed URL: the token becomes a cookie and leaves the address bar.
        await _firefox.NavigateAsync(host.Server.LaunchUrl);
        Assert.Equal(host.Server.BaseAddress.ToString(), (await _firefox.EvaluateAsync("location.href"))!.GetValue<string>());
        await _firefox.EvaluateAsync(Helpers);
        await WaitFor("h1", "Overview");
        await Click("#check-button");
        await WaitFor("#check-report", "no problems found");
        await Screenshot("overview");

        // A collection, paged forward and back by keyset.
        await Click("#nav-collections a[data-name='orders']");
        await WaitFor("#page-range", "50 documents, _id 1 … 50");
        var ids = await _firefox.EvaluateAsync("[...document.querySelectorAll('table.documents tbody tr td:first-child')].map(cell => cell.textContent)");
        Assert.Equal(Enumerable.Range(1, 50).Select(i => i.ToString()), ids!.AsArray().Select(id => id!.GetValue<string>()));
        await WaitFor("table.documents thead", "customer");
        await Screenshot("documents");
        await Click("#next-page");
        await WaitFor("#page-range", "_id 51 … 100");
        await Click("#next-page");
        await WaitFor("#page-range", "20 documents, _id 101 … 120");
        Assert.True((await _firefox.EvaluateAsync("document.querySelector('#next-page').disabled"))!.GetValue<bool>());
        await Click("#previous-page");
        await WaitFor("#page-range", "_id 51 … 100");
        await Click("#previous-page");
        await WaitFor("#page-range", "_id 1 … 50");

        // A filter with its plan.
        await Click("nav.tabs a[href$='/query']");
        await WaitFor("#query-filter", "");
        await Fill("#query-filter", """{"status":"shipped","total":{"$gte":50}}""");
        await Click("#query-run");
        await WaitFor("#query-plan", "by_status");
        var expected = Enumerable.Range(1, 120).Select(TestDatabases.Order)
            .Count(o => o["status"].AsString == "shipped" && o["total"].AsInt32 >= 50);
        Assert.True(expected > 0);
        await WaitFor("#query-count", $"{expected} documents");
        await Screenshot("query");

        // An edit, seen through the engine; then an invalid one, refused with nothing changed.
        await Click("nav.tabs a[href$='/c/orders']");
        await WaitFor("#page-range", "_id 1 … 50");
        await Click("table.documents tbody tr[data-id*='\"3\"']");
        await Click("#edit-button");
        await WaitFor("#editor", "\"status\": \"delivered\"");
        var text = (await _firefox.EvaluateAsync("document.querySelector('#editor').value"))!.GetValue<string>();
        await Fill("#editor", text.Replace("\"status\": \"delivered\"", "\"status\": \"on hold\""));
        await Click("#save-button");
        await WaitFor("#edit-saved", "Saved.");
        Assert.Equal("on hold", host.Server.Database.GetCollection("orders").FindById(3)!["status"].AsString);
        var stored = host.Server.Database.GetCollection("orders").FindById(3);
        await Fill("#editor", text.Replace("\"status\": \"delivered\"", "\"status\": "));
        await Click("#save-button");
        await WaitFor("#edit-error", "not valid JSON");
        await Screenshot("edit-error");
        Assert.Equal(stored, host.Server.Database.GetCollection("orders").FindById(3));

        // A request without the cookie is refused.
        var status = await _firefox.EvaluateAsync("fetch('/api/overview', { credentials: 'omit' }).then(response => response.status)");
        Assert.Equal(401, status!.GetValue<double>());
    }
}
