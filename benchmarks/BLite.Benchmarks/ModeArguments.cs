using System.Globalization;

namespace BLite.Benchmarks;

/// <summary>The <c>--name value</c> options of the benchmark modes that are not BenchmarkDotNet's (Program).</summary>
internal static class ModeArguments
{
    /// <summary>The integer after <paramref name="name"/>, or <paramref name="fallback"/> when it is not given.</summary>
    public static int Int(IReadOnlyList<string> args, string name, int fallback) =>
        String(args, name) is { } text ? int.Parse(text, CultureInfo.InvariantCulture) : fallback;

    /// <summary>The text after <paramref name="name"/>, or null when it is not given.</summary>
    public static string? String(IReadOnlyList<string> args, string name)
    {
        for (var i = 0; i < args.Count - 1; i++)
        {
            if (args[i] == name)
            {
                return args[i + 1];
            }
        }

        return null;
    }
}
