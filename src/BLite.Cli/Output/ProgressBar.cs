using System.Globalization;
using BLite.Cli.Commands;

namespace BLite.Cli.Output;

/// <summary>
/// A one-line progress bar on standard error, redrawn in place at most every 100 ms. Silent when
/// standard error is not a terminal, so redirected output and logs never receive control characters.
/// </summary>
internal sealed class ProgressBar : IDisposable
{
    private const int Width = 30;
    private const long RedrawIntervalMs = 100;

    private readonly TextWriter? _error;
    private readonly string _label;
    private readonly string _unit;
    private long _total;
    private long _lastDraw = -RedrawIntervalMs;
    private int _lastLength;

    private ProgressBar(TextWriter? error, string label, long total, string unit)
    {
        _error = error;
        _label = label;
        _total = total;
        _unit = unit;
    }

    /// <param name="total">The amount that means done; 0 or less when unknown (a counter is shown instead of a bar).</param>
    public static ProgressBar Start(CommandContext context, string label, long total, string unit) =>
        new(context.ErrorIsTerminal ? context.Error : null, label, total, unit);

    public void SetTotal(long total) => _total = total;

    public void Report(long done)
    {
        if (_error is null)
        {
            return;
        }

        var now = Environment.TickCount64;
        if (now - _lastDraw < RedrawIntervalMs)
        {
            return;
        }

        _lastDraw = now;
        Draw(done);
    }

    public void Dispose()
    {
        if (_error is null || _lastLength == 0)
        {
            return;
        }

        _error.Write('\r' + new string(' ', _lastLength) + '\r');
        _error.Flush();
    }

    private void Draw(long done)
    {
        string text;
        if (_total > 0)
        {
            var fraction = Math.Clamp((double)done / _total, 0, 1);
            var filled = (int)(fraction * Width);
            text = string.Create(CultureInfo.InvariantCulture, $"{_label} [{new string('#', filled)}{new string('-', Width - filled)}] {fraction * 100,3:0}% {done:N0}/{_total:N0} {_unit}");
        }
        else
        {
            text = string.Create(CultureInfo.InvariantCulture, $"{_label} {done:N0} {_unit}");
        }

        _error!.Write('\r' + text.PadRight(_lastLength));
        _error.Flush();
        _lastLength = text.Length;
    }
}
