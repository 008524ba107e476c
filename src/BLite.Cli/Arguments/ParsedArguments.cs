using System.Globalization;

namespace BLite.Cli.Arguments;

/// <summary>A command line split into positional arguments and options, validated against the command's specs.</summary>
internal sealed class ParsedArguments
{
    private readonly IReadOnlyList<string> _positionals;
    private readonly Dictionary<string, string?> _options;
    private readonly string _command;

    public ParsedArguments(string command, IReadOnlyList<string> positionals, Dictionary<string, string?> options)
    {
        _command = command;
        _positionals = positionals;
        _options = options;
    }

    public bool HelpRequested => _options.ContainsKey("help");

    /// <summary>The positional argument at <paramref name="index"/>, or null when it was not given.</summary>
    public string? Positional(int index) => index < _positionals.Count ? _positionals[index] : null;

    public bool Flag(string name) => _options.ContainsKey(name);

    public string? Value(string name) => _options.TryGetValue(name, out var value) ? value : null;

    /// <summary>A non-negative integer option, or <paramref name="fallback"/> when absent.</summary>
    public long NonNegativeInteger(string name, long fallback)
    {
        var text = Value(name);
        if (text is null)
        {
            return fallback;
        }

        if (!long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var value))
        {
            throw new UsageException($"--{name} needs a whole number of 0 or more, not '{text}'.", _command);
        }

        return value;
    }
}
