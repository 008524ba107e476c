namespace BLite.Cli.Arguments;

/// <summary>
/// Parses one command's arguments: positionals in order, <c>--name value</c> or
/// <c>--name=value</c> options, flags, <c>-h</c>/<c>--help</c>, and <c>--</c> to end options (so a
/// later argument may start with a dash). An option that takes a value always consumes the next
/// argument, so <c>--sort -total</c> works.
/// </summary>
internal static class ArgumentParser
{
    private static readonly OptionSpec _help = new("help", null, "Show this help.");

    public static ParsedArguments Parse(string command, IReadOnlyList<string> args, IReadOnlyList<ArgumentSpec> arguments, IReadOnlyList<OptionSpec> options)
    {
        var positionals = new List<string>();
        var values = new Dictionary<string, string?>(StringComparer.Ordinal);
        var optionsEnded = false;
        for (var i = 0; i < args.Count; i++)
        {
            var arg = args[i];
            if (optionsEnded || !IsOption(arg))
            {
                positionals.Add(arg);
                continue;
            }

            if (arg == "--")
            {
                optionsEnded = true;
                continue;
            }

            if (arg == "-h")
            {
                values["help"] = null;
                continue;
            }

            if (!arg.StartsWith("--", StringComparison.Ordinal))
            {
                throw new UsageException($"unknown option '{arg}' for '{command}' (options are spelled --name).", command);
            }

            var equals = arg.IndexOf('=', StringComparison.Ordinal);
            var name = equals < 0 ? arg[2..] : arg[2..equals];
            var spec = name == _help.Name ? _help : Find(options, name)
                ?? throw new UsageException($"unknown option '--{name}' for '{command}'.", command);
            if (values.ContainsKey(name))
            {
                throw new UsageException($"option '--{name}' is given twice.", command);
            }

            if (!spec.TakesValue)
            {
                if (equals >= 0)
                {
                    throw new UsageException($"option '--{name}' takes no value.", command);
                }

                values[name] = null;
            }
            else if (equals >= 0)
            {
                values[name] = arg[(equals + 1)..];
            }
            else if (i + 1 < args.Count)
            {
                values[name] = args[++i];
            }
            else
            {
                throw new UsageException($"option '--{name}' needs a value ({spec.Synopsis}).", command);
            }
        }

        var parsed = new ParsedArguments(command, positionals, values);
        if (!parsed.HelpRequested)
        {
            CheckPositionals(command, positionals, arguments);
        }

        return parsed;
    }

    /// <summary>A lone "-" is a positional (standard input or output), as is anything not starting with '-'.</summary>
    private static bool IsOption(string arg) => arg.Length > 1 && arg[0] == '-';

    private static OptionSpec? Find(IReadOnlyList<OptionSpec> options, string name)
    {
        foreach (var option in options)
        {
            if (option.Name == name)
            {
                return option;
            }
        }

        return null;
    }

    private static void CheckPositionals(string command, List<string> positionals, IReadOnlyList<ArgumentSpec> arguments)
    {
        var required = 0;
        foreach (var argument in arguments)
        {
            if (!argument.Optional)
            {
                required++;
            }
        }

        if (positionals.Count < required)
        {
            throw new UsageException($"'{command}' needs {arguments[positionals.Count].Synopsis}.", command);
        }

        if (positionals.Count > arguments.Count)
        {
            throw new UsageException($"'{command}' takes at most {arguments.Count} argument(s); unexpected '{positionals[arguments.Count]}'.", command);
        }
    }
}
