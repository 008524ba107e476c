using BLite.Cli.Commands;
using BLite.Cli.Output;

namespace BLite.Cli.Tests.Output;

public class ProgressBarTests
{
    [Fact]
    public void Nothing_is_drawn_when_standard_error_is_not_a_terminal()
    {
        var error = new StringWriter();
        using (var progress = ProgressBar.Start(Context(error, terminal: false), "importing", 100, "documents"))
        {
            progress.Report(50);
        }

        Assert.Equal("", error.ToString());
    }

    [Fact]
    public void A_terminal_gets_a_bar_redrawn_in_place_and_cleared_at_the_end()
    {
        var error = new StringWriter();
        using (var progress = ProgressBar.Start(Context(error, terminal: true), "importing", 200, "documents"))
        {
            progress.Report(50);
        }

        var text = error.ToString();
        Assert.StartsWith("\rimporting [#######-----------------------]  25% 50/200 documents", text);
        Assert.EndsWith("\r", text);
        Assert.DoesNotContain('\n', text);
    }

    [Fact]
    public void An_unknown_total_shows_a_counter()
    {
        var error = new StringWriter();
        using (var progress = ProgressBar.Start(Context(error, terminal: true), "importing", 0, "documents"))
        {
            progress.Report(1234);
        }

        Assert.StartsWith("\rimporting 1,234 documents", error.ToString());
    }

    private static CommandContext Context(TextWriter error, bool terminal) =>
        new(TextWriter.Null, error, () => Stream.Null, () => Stream.Null, terminal);
}
