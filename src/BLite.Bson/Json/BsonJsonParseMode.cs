namespace BLite.Bson;

/// <summary>Which Extended JSON input <c>BsonDocument.Parse</c> accepts (docs/json.md).</summary>
public enum BsonJsonParseMode
{
    /// <summary>Extended JSON v2, canonical and relaxed forms (plus the BLite wrappers); legacy forms v2 forbids are refused.</summary>
    Standard,

    /// <summary>
    /// Everything <see cref="Standard"/> accepts, plus the legacy <c>{"$date": &lt;number&gt;}</c>
    /// (Unix milliseconds as a bare JSON integer) that older tools such as mongoexport wrote.
    /// </summary>
    Legacy,
}
