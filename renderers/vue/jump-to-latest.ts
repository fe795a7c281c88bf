import { defineComponent, h, onBeforeUnmount, onMounted, ref } from 'vue'
import type { PropType } from 'vue'
import { isFollowing } from '../../src/view/follow-scroll.js'

/** The down arrow (as icons.ts draws its icons; that module is the entry's, which this chunk does not import). */
const arrow = () => h('svg', { viewBox: '0 0 24 24', width: 16, height: 16, 'aria-hidden': 'true', focusable: 'false', fill: 'none', stroke: 'currentColor', 'stroke-width': 2, 'stroke-linecap': 'round', 'stroke-linejoin': 'round' }, h('path', { d: 'M12 5v14M5 12l7 7 7-7' }))

/**
 * "Jump to latest" (a chunk of its own, as in chatrail/react; `<MessageList>` mounts it while a
 * reply streams, the only time it shows): while the reader has scrolled up into history (the
 * follow scroll then leaves them there), a button floats over the bottom edge of the list; a
 * click scrolls to the newest content, where the follow scroll picks the reader up again, and puts
 * the focus on the list. Whether the reader is up is read from the list's scroll events: arriving
 * content does not move a reader who is up, and a following reader's scroll is set by the follow
 * scroll, which fires one too.
 */
export const JumpToLatest = defineComponent({
  name: 'JumpToLatest',
  inheritAttrs: false,
  props: {
    /** The chat's scroll container (`<MessageList>`'s log). */
    list: { type: Object as PropType<HTMLElement>, required: true },
    label: { type: String, required: true },
  },
  setup(props) {
    const scrolledUp = ref(false)
    const check = (): void => { scrolledUp.value = !isFollowing(props.list) }
    onMounted(() => {
      check()
      props.list.addEventListener('scroll', check, { passive: true })
    })
    onBeforeUnmount(() => props.list.removeEventListener('scroll', check))
    const jump = (): void => {
      props.list.scrollTop = props.list.scrollHeight
      props.list.focus({ preventScroll: true })
      scrolledUp.value = false
    }
    return () => (!scrolledUp.value ? null : h('div', { 'data-chatrail-jump-anchor': '' }, [
      h('button', { type: 'button', 'data-chatrail-jump-to-latest': '', onClick: jump }, [arrow(), props.label]),
    ]))
  },
})
