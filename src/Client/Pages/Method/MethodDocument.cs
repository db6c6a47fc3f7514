using System.Text;
using System.Text.RegularExpressions;
using Markdig;
using Markdig.Extensions.AutoIdentifiers;
using Markdig.Renderers;
using Markdig.Renderers.Html;
using Markdig.Syntax;
using Markdig.Syntax.Inlines;

namespace IfiDashboard.Client.Pages.Method;

/// <summary>One second-level section of the method statement: a topic with a page of its own.</summary>
/// <param name="Slug">The topic's address, /method/{slug}: its heading's words before " — " ("time-lost-to-zeroing").</param>
/// <param name="Html">The section rendered as part of the whole document, its heading an h2.</param>
/// <param name="PageHtml">The section rendered as a page of its own: its heading the page's h1, the ones below it one level up.</param>
public sealed record MethodTopic(string Slug, string Title, string Html, string PageHtml);

public sealed record RenderedMethod(string IntroductionHtml, IReadOnlyList<MethodTopic> Topics);

/// <summary>
/// docs/compliance.md, embedded in this assembly and rendered once with Markdig: the method statement every figure
/// of the overview links to. Raw HTML in the file is escaped, not passed on, and nothing inline is emitted, so the
/// page holds under the dashboard's Content-Security-Policy. Headings carry GitHub's identifiers, so the file's own
/// "#section" links work here as on GitHub; links to other files of docs/ (not served) keep their text only.
/// </summary>
public static partial class MethodDocument
{
    const string ResourceName = "method/compliance.md";

    /// <summary>Where the topics are served; a topic is at <c>method/{slug}</c> (relative, as the pages link).</summary>
    public const string Path = "method";

    public const string TimeLost = "time-lost-to-zeroing", RestoreRisk = "restore-risk", Summaries = "fleet-summaries",
        Status = "status", FixFirst = "what-to-fix-first";

    static readonly Lazy<RenderedMethod> Document = new(() => Render(ReadEmbedded()));

    /// <summary>The document's title (its first heading) and introduction, before the first topic.</summary>
    public static string IntroductionHtml => Document.Value.IntroductionHtml;

    public static IReadOnlyList<MethodTopic> Topics => Document.Value.Topics;

    public static MethodTopic? Find(string? slug) =>
        Topics.FirstOrDefault(t => string.Equals(t.Slug, slug, StringComparison.OrdinalIgnoreCase));

    /// <summary>The link to a topic, or to one heading inside it.</summary>
    public static string Href(string slug, string? heading = null) =>
        $"{Path}/{slug}" + (heading is null ? "" : "#" + heading);

    static string ReadEmbedded()
    {
        using var stream = typeof(MethodDocument).Assembly.GetManifestResourceStream(ResourceName)
                           ?? throw new InvalidOperationException($"The embedded {ResourceName} is missing.");
        using var reader = new StreamReader(stream);
        return reader.ReadToEnd();
    }

    /// <summary>Renders a method statement written in markdown into its introduction and topics.</summary>
    public static RenderedMethod Render(string markdown)
    {
        var pipeline = new MarkdownPipelineBuilder()
            .UsePipeTables()
            .UseAutoIdentifiers(AutoIdentifierOptions.GitHub)
            .DisableHtml()
            .Build();
        var document = Markdown.Parse(markdown, pipeline);

        // Each block belongs to the topic of the second-level heading above it; blocks before the first are the introduction.
        var sections = new List<(HeadingBlock? Heading, List<Block> Blocks)> { (null, []) };
        foreach (var block in document)
        {
            if (block is HeadingBlock { Level: 2 } heading)
                sections.Add((heading, []));
            sections[^1].Blocks.Add(block);
        }
        var slugs = sections.Where(s => s.Heading is not null).Select(s => Slug(TopicTitle(s.Heading!))).ToList();
        if (slugs.Distinct().Count() != slugs.Count)
            throw new InvalidOperationException("Two sections of the method statement share a topic name: " + string.Join(", ", slugs));

        var topicOfHeading = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var (heading, blocks) in sections.Where(s => s.Heading is not null))
            foreach (var id in blocks.OfType<HeadingBlock>().Select(h => h.GetAttributes().Id).OfType<string>())
                topicOfHeading[id] = Slug(TopicTitle(heading!));

        foreach (var link in document.Descendants<LinkInline>().Where(l => !l.IsImage).ToList())
        {
            var url = link.Url ?? "";
            if (url.StartsWith('#') && topicOfHeading.TryGetValue(url[1..], out var topic))
                link.Url = Href(topic, url[1..]);
            else if (!url.StartsWith("https://", StringComparison.OrdinalIgnoreCase))
            {
                // Another file of docs/ (not served by the dashboard) or a plain-http address: keep what the link says.
                link.MoveChildrenAfter(link);
                link.Remove();
            }
        }

        string Html(IEnumerable<Block> blocks)
        {
            using var writer = new StringWriter();
            var renderer = new HtmlRenderer(writer);
            pipeline.Setup(renderer);
            // The <pre> is what scrolls, so the tabindex belongs there.
            renderer.ObjectRenderers.FindExact<CodeBlockRenderer>()!.OutputAttributesOnPre = true;
            foreach (var block in blocks)
                renderer.Render(block);
            writer.Flush();
            return writer.ToString();
        }

        // A code block wider than the page scrolls on its own: focusable, so that a keyboard can scroll it too.
        foreach (var code in document.Descendants<CodeBlock>())
            code.GetAttributes().AddPropertyIfNotExist("tabindex", "0");

        // A page's h1 takes the focus after navigation (Routes.razor's FocusOnNavigate), as on every page.
        foreach (var title in sections[0].Blocks.OfType<HeadingBlock>().Where(h => h.Level == 1))
            title.GetAttributes().AddPropertyIfNotExist("tabindex", "-1");

        string PageHtml(List<Block> blocks)
        {
            var headings = blocks.OfType<HeadingBlock>().ToList();
            headings.ForEach(h => h.Level--);
            var focus = new KeyValuePair<string, string?>("tabindex", "-1");
            headings[0].GetAttributes().AddProperty(focus.Key, focus.Value!);
            try { return Html(blocks); }
            finally
            {
                headings.ForEach(h => h.Level++);
                headings[0].GetAttributes().Properties!.Remove(focus);
            }
        }

        return new RenderedMethod(Html(sections[0].Blocks), sections.Skip(1)
            .Select(s => new MethodTopic(Slug(TopicTitle(s.Heading!)), TopicTitle(s.Heading!), Html(s.Blocks), PageHtml(s.Blocks)))
            .ToList());
    }

    /// <summary>A heading's words before " — " (what follows names the code): "Time lost to zeroing".</summary>
    static string TopicTitle(HeadingBlock heading)
    {
        var text = new StringBuilder();
        foreach (var inline in heading.Inline?.Descendants<Inline>() ?? [])
            text.Append(inline switch { LiteralInline l => l.Content.ToString(), CodeInline c => c.Content, _ => "" });
        var title = text.ToString();
        var dash = title.IndexOf(" — ", StringComparison.Ordinal);
        return (dash < 0 ? title : title[..dash]).Trim();
    }

    static string Slug(string title) => NotSlug().Replace(title.ToLowerInvariant(), "-").Trim('-');

    [GeneratedRegex("[^a-z0-9]+")]
    private static partial Regex NotSlug();
}
