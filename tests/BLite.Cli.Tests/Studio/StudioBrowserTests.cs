using System.Text.RegularExpressions;
using Microsoft.Playwright;

namespace BLite.Cli.Tests.Studio;

/// <summary>
/// The studio in a real browser: the flow a person follows, from the printed URL to an edit seen
/// through the engine, with screenshots of the main pages in TestResults/studio.
/// </summary>
public class StudioBrowserTests : IClassFixture<StudioBrowser>
{
    private readonly StudioBrowser _browser;

    public StudioBrowserTests(StudioBrowser browser) => _browser = browser;

    private static Task Screenshot(IPage page, string name) =>
        page.ScreenshotAsync(new PageScreenshotOptions { Path = Path.Combine(StudioBrowser.ScreenshotDirectory, name + ".png") });

    private static async Task<List<string>> FirstColumn(IPage page) =>
        [.. await page.Locator("table.documents tbody tr td:first-child").AllTextContentsAsync()];

    [Fact]
    public async Task Browse_page_query_edit_and_refuse_in_a_real_browser()
    {
        await using var host = await StudioHost.StartAsync(orders: 120);
        await using var context = await _browser.Browser.NewContextAsync(new BrowserNewContextOptions { ViewportSize = new ViewportSize { Width = 1280, Height = 800 } });
        var page = await context.NewPageAsync();
        var pageErrors = new List<string>();
        page.PageError += (_, error) => pageErrors.Add(error);

        // The printed URL: the token becomes a cookie and leaves the address bar.
        await page.GotoAsync(host.Server.LaunchUrl.ToString());
        Assert.Equal(host.Server.BaseAddress.ToString(), page.Url);
        await Assertions.Expect(page.Locator("h1")).ToContainTextAsync("Overview");
        await page.ClickAsync("#check-button");
        await Assertions.Expect(page.Locator("#check-report")).ToContainTextAsync("no problems found");
        await Assertions.Expect(page.Locator("#collections-table")).ToContainTextAsync("orders");
        await Screenshot(page, "overview");

        // A collection, paged forward and back by keyset.
        await page.ClickAsync("#nav-collections a[data-name='orders']");
        await Assertions.Expect(page.Locator("#page-range")).ToContainTextAsync("50 documents, _id 1 … 50");
        Assert.Equal(Enumerable.Range(1, 50).Select(i => i.ToString()), await FirstColumn(page));
        await Assertions.Expect(page.Locator("table.documents thead")).ToContainTextAsync("customer");
        await Screenshot(page, "documents");
        await page.ClickAsync("#next-page");
        await Assertions.Expect(page.Locator("#page-range")).ToContainTextAsync("_id 51 … 100");
        await page.Keyboard.PressAsync("]");
        await Assertions.Expect(page.Locator("#page-range")).ToContainTextAsync("20 documents, _id 101 … 120");
        await Assertions.Expect(page.Locator("#next-page")).ToBeDisabledAsync();
        await page.ClickAsync("#previous-page");
        await Assertions.Expect(page.Locator("#page-range")).ToContainTextAsync("_id 51 … 100");
        await page.ClickAsync("#previous-page");
        await Assertions.Expect(page.Locator("#page-range")).ToContainTextAsync("_id 1 … 50");
        await Assertions.Expect(page.Locator("#previous-page")).ToBeDisabledAsync();

        // A document in the JSON view, opened from the keyboard.
        await page.Locator("table.documents tbody tr").Nth(2).FocusAsync();
        await page.Keyboard.PressAsync("Enter");
        await Assertions.Expect(page.Locator("#document-json")).ToContainTextAsync("\"email\": \"c3@example.com\"");
        await Screenshot(page, "document");
        await page.Keyboard.PressAsync("Escape");
        await Assertions.Expect(page.Locator("#document-json")).ToHaveCountAsync(0);
        await page.FillAsync("#go-to-id", "90");
        await page.Keyboard.PressAsync("Enter");
        await Assertions.Expect(page.Locator("#page-range")).ToContainTextAsync("31 documents, _id 90 … 120");

        // A filter with its plan and time; then a bad filter and the parser's message beside the box.
        await page.ClickAsync("nav.tabs a:text('Query')");
        await page.FillAsync("#query-filter", """{"status":"shipped","total":{"$gte":50}}""");
        await page.FillAsync("#query-sort", "-total");
        await page.ClickAsync("#query-run");
        await Assertions.Expect(page.Locator("#query-plan")).ToContainTextAsync("by_status");
        await Assertions.Expect(page.Locator("#query-time")).ToHaveTextAsync(new Regex(@"^\d+\.\d ms$"));
        var expected = Enumerable.Range(1, 120).Select(TestDatabases.Order)
            .Where(o => o["status"].AsString == "shipped" && o["total"].AsInt32 >= 50).ToList();
        Assert.NotEmpty(expected);
        await Assertions.Expect(page.Locator("#query-count")).ToHaveTextAsync($"{expected.Count} documents");
        await Screenshot(page, "query");
        await page.FillAsync("#query-filter", """{"status":{"$gt":}}""");
        await page.Keyboard.PressAsync("Enter");
        await Assertions.Expect(page.Locator("#filter-error")).ToContainTextAsync("bad filter");
        await Assertions.Expect(page.Locator("#query-results")).ToBeEmptyAsync();
        await Screenshot(page, "query-error");

        // An edit, seen on reload and through the engine.
        await page.GotoAsync(host.Server.BaseAddress + "#/c/orders");
        await page.Locator("table.documents tbody tr[data-id*='\"3\"']").ClickAsync();
        await page.ClickAsync("#edit-button");
        var editor = page.Locator("#editor");
        await Assertions.Expect(editor).ToHaveValueAsync(new Regex("\"status\": \"delivered\""));
        var text = await editor.InputValueAsync();
        await editor.FillAsync(text.Replace("\"status\": \"delivered\"", "\"status\": \"on hold\""));
        await Screenshot(page, "edit");
        await page.ClickAsync("#save-button");
        await Assertions.Expect(page.Locator("#edit-saved")).ToBeVisibleAsync();
        await page.ReloadAsync();
        await Assertions.Expect(page.Locator("#editor")).ToHaveValueAsync(new Regex("\"status\": \"on hold\""));
        Assert.Equal("on hold", host.Server.Database.GetCollection("orders").FindById(3)!["status"].AsString);

        // Invalid edits: the error is shown and nothing changes.
        var stored = host.Server.Database.GetCollection("orders").FindById(3);
        var valid = await editor.InputValueAsync();
        await editor.FillAsync(valid.Replace("\"status\": \"on hold\"", "\"status\": "));
        await page.ClickAsync("#save-button");
        await Assertions.Expect(page.Locator("#edit-error")).ToContainTextAsync("not valid JSON");
        await editor.FillAsync(valid.Replace("c3@example.com", "c4@example.com"));
        await page.ClickAsync("#save-button");
        await Assertions.Expect(page.Locator("#edit-error")).ToContainTextAsync("by_email");
        await Screenshot(page, "edit-error");
        Assert.Equal(stored, host.Server.Database.GetCollection("orders").FindById(3));
        Assert.Equal(TestDatabases.Order(4), host.Server.Database.GetCollection("orders").FindById(4));

        // Indexes.
        await page.GotoAsync(host.Server.BaseAddress + "#/c/orders/indexes");
        await Assertions.Expect(page.Locator("#indexes-table")).ToContainTextAsync("customer.email");
        await page.FillAsync("#index-name", "by_total");
        await page.FillAsync("#index-fields", "total");
        await page.ClickAsync("form button[type=submit]");
        await Assertions.Expect(page.Locator("#indexes-table")).ToContainTextAsync("by_total");
        await Screenshot(page, "indexes");
        Assert.Contains("by_total", host.Server.Database.GetCollection("orders").GetIndexes().Select(index => index.Name));

        // Import a file and download the export.
        await page.ClickAsync("nav.tabs a:text('Import / export')");
        await page.Locator("#import-file").SetInputFilesAsync(new FilePayload
        {
            Name = "more.jsonl",
            MimeType = "application/x-ndjson",
            Buffer = System.Text.Encoding.UTF8.GetBytes("{\"_id\": 500, \"status\": \"imported\", \"customer\": {\"email\": \"i500@example.com\"}}\n{\"_id\": 501, \"status\": \"imported\", \"customer\": {\"email\": \"i501@example.com\"}}\n"),
        });
        await page.ClickAsync("#import-button");
        await Assertions.Expect(page.Locator("#import-message")).ToContainTextAsync("imported 2 document(s) into 'orders'");
        await Assertions.Expect(page.Locator("#collection-count")).ToHaveTextAsync("122 documents");
        await Screenshot(page, "transfer");
        var download = await page.RunAndWaitForDownloadAsync(() => page.ClickAsync("#export-jsonl"));
        var exported = await File.ReadAllLinesAsync((await download.PathAsync())!);
        Assert.Equal("orders.jsonl", download.SuggestedFilename);
        Assert.Equal(122, exported.Length);
        Assert.Equal("imported", host.Server.Database.GetCollection("orders").FindById(501)!["status"].AsString);
        Assert.Empty(pageErrors);

        // Another browser profile, without the cookie, is refused.
        await using var stranger = await _browser.Browser.NewContextAsync();
        var strangerPage = await stranger.NewPageAsync();
        var refused = await strangerPage.GotoAsync(host.Server.BaseAddress.ToString());
        Assert.Equal(401, refused!.Status);
        Assert.Contains("access token", await strangerPage.Locator("body").InnerTextAsync());
    }
}
