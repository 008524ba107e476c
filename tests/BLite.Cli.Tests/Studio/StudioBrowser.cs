using Microsoft.Playwright;

namespace BLite.Cli.Tests.Studio;

/// <summary>
/// One headless Chromium for the browser tests: Debian's /usr/bin/chromium (.ci/install-browsers
/// installs it), driven by Playwright; Playwright's own browser download is never used.
/// </summary>
public sealed class StudioBrowser : IAsyncLifetime
{
    public const string ChromiumPath = "/usr/bin/chromium";

    private IPlaywright? _playwright;

    public IBrowser Browser { get; private set; } = null!;

    /// <summary>TestResults/studio at the repository root, kept by CI as an artifact.</summary>
    public static string ScreenshotDirectory { get; } = FindScreenshotDirectory();

    public async Task InitializeAsync()
    {
        Assert.True(File.Exists(ChromiumPath), $"{ChromiumPath} is missing; run .ci/install-browsers (Debian's chromium package).");
        _playwright = await Playwright.CreateAsync();
        Browser = await _playwright.Chromium.LaunchAsync(new BrowserTypeLaunchOptions { ExecutablePath = ChromiumPath, Headless = true });
    }

    public async Task DisposeAsync()
    {
        if (Browser is not null)
        {
            await Browser.DisposeAsync();
        }

        _playwright?.Dispose();
    }

    private static string FindScreenshotDirectory()
    {
        var directory = new DirectoryInfo(AppContext.BaseDirectory);
        while (directory is not null && !File.Exists(Path.Combine(directory.FullName, "BLite.sln")))
        {
            directory = directory.Parent;
        }

        var root = directory?.FullName ?? AppContext.BaseDirectory;
        var path = Path.Combine(root, "TestResults", "studio");
        Directory.CreateDirectory(path);
        return path;
    }
}
